/** Message shown when a page needed a session and sent the user to sign in. */
export const SESSION_REQUIRED_MESSAGE = 'Please sign in to continue.';

/** Fallback for every other NextAuth error name (OAuthCallbackError, AccountNotLinkedError, …). */
export const SIGN_IN_FAILED_MESSAGE = 'Sign-in failed. Please try again.';

/** Turns the `?error=` value on the sign-in page into the message a teacher sees, or null. */
export function signInErrorMessage(error: string | null): string | null {
  if (!error) return null;
  return error === 'SessionRequired' ? SESSION_REQUIRED_MESSAGE : SIGN_IN_FAILED_MESSAGE;
}
