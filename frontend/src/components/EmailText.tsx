import { Fragment } from 'react';

/**
 * An email address that wraps at sensible points on narrow screens: before the "@" and after
 * each dot, rather than in the middle of a word.
 */
export function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=@)|(?<=\.)/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
