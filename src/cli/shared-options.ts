/** Help texts and options that several commands share, worded once. */

export const ON_ERROR_HELP =
  'when an operation fails: continue (count it, keep the schedule; default) or abort (stop the run, still writing its partial result)';

export const PROCESSES_HELP =
  'worker processes (threads) the threadcount workers are spread over, each with its own connections; one merged result. auto (the default): one per core when every store is remote (--url, config, --docker), 1 when a local server shares the cores';
