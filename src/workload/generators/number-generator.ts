/** go-ycsb/YCSB's generator shape: `nextValue()` draws, `lastValue()` repeats the last draw. */
export interface NumberGenerator {
  nextValue(): number;
  lastValue(): number;
}
