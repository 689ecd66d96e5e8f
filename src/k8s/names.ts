/**
 * What Kubernetes accepts as a name, a quantity or an image, checked before any manifest is
 * written: a name the API server would refuse is one line here, not a failed `kubectl apply`.
 */
import { UsageError } from '../common/user-error.ts';

/** RFC 1123 label: what a namespace, a Job, a pod's hostname and a Secret's name may be. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** A DNS label of at most `max` characters (63 by default), or a one-line error naming `what`. */
export function dnsLabel(value: string, what: string, max = 63): string {
  if (value.length === 0 || value.length > max || !DNS_LABEL.test(value))
    throw new UsageError(
      `${what}: expected a lower-case DNS label (a-z, 0-9 and -, starting and ending with a letter or digit, at most ${max} characters); got "${value}"`,
    );
  return value;
}

/** A Service's name must also start with a letter (RFC 1035). */
export function serviceName(value: string, what: string): string {
  dnsLabel(value, what);
  if (!/^[a-z]/.test(value)) throw new UsageError(`${what}: a Service name starts with a letter; got "${value}"`);
  return value;
}

/** Kubernetes' resource quantity: `500m`, `2`, `1.5`, `512Mi`, `1G`, `1e3`. */
const QUANTITY = /^[0-9]+(\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei|[eE][0-9]+)?$/;

export function quantity(value: string, what: string): string {
  if (!QUANTITY.test(value) || Number.parseFloat(value) === 0)
    throw new UsageError(
      `${what}: expected a Kubernetes quantity above zero (e.g. 500m, 2, 512Mi, 4Gi); got "${value}"`,
    );
  return value;
}

/** A container image reference, loosely: no spaces, no upper case in the repository, no scheme. */
const IMAGE = /^[a-z0-9]+([._/:-][a-z0-9]+|__[a-z0-9]+)*(:[\w][\w.-]{0,127})?(@sha256:[a-f0-9]{64})?$/;

export function image(value: string, what = '--image'): string {
  if (!IMAGE.test(value))
    throw new UsageError(
      `${what}: expected an image reference such as registry.example.com/docbench:0.1.0; got "${value}"`,
    );
  return value;
}

/** An integer in [min, max], from a command-line string. */
export function integerIn(value: string, what: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n < min || n > max)
    throw new UsageError(`${what}: expected a whole number from ${min} to ${max}; got "${value}"`);
  return n;
}
