// The WHATWG "valid e-mail address" rule, as browsers apply it to type=email inputs; it accepts
// single-label domains such as admin@localhost, which self-hosted installs use.
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** True when the text (already trimmed) is a well-formed email address. */
export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email);
}
