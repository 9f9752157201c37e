/**
 * The browser side of WebAuthn (@simplewebauthn/browser, loaded on first use): create a passkey
 * for registration options, or sign a server's challenge with one. Options come from the server as
 * JSON (PublicKeyCredential{Creation,Request}OptionsJSON); answers go back as JSON too.
 */

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** Creates a passkey (navigator.credentials.create) for the server's registration options. */
export async function createPasskey(options: Record<string, unknown>) {
  const { startRegistration } = await import('@simplewebauthn/browser');
  return startRegistration({ optionsJSON: options as never });
}

/** Signs the server's challenge with a passkey (navigator.credentials.get). */
export async function signWithPasskey(options: Record<string, unknown>) {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return startAuthentication({ optionsJSON: options as never });
}
