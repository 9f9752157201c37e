import { Fragment } from 'react';

/**
 * Where a long address may break: before the '@' and before each dot, after each hyphen (as
 * typographers break addresses), so that a narrow column shows 'samantha.sweep-of-the-' /
 * 'operations-team' / '@example.com' instead of cutting a word at its last letter.
 */
export function addressPieces(address: string): string[] {
  return address.split(/(?=[@.])|(?<=-)/).filter((piece) => piece !== '');
}

/**
 * An email address (or any dotted name) that wraps at its natural joints; a piece too long for
 * the line still breaks wherever it must (the surrounding element keeps `overflow-wrap: anywhere`).
 * The text read, copied and searched is the address unchanged: <wbr> adds no character.
 */
export function EmailText({ children }: { children: string }) {
  return (
    <>
      {addressPieces(children).map((piece, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {piece}
        </Fragment>
      ))}
    </>
  );
}
