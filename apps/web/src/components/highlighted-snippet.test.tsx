// @vitest-environment happy-dom
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HighlightedSnippet } from './highlighted-snippet';

describe('a search hit', () => {
  it('marks the match and says with an ellipsis where the line goes on', () => {
    const { container } = render(
      <HighlightedSnippet
        text="sudo rm -rf /tmp/build"
        matchStart={5}
        matchLength={6}
        clippedStart
        clippedEnd={false}
      />,
    );
    expect(container.querySelector('mark')?.textContent).toBe('rm -rf');
    expect(container.textContent).toBe('… sudo rm -rf /tmp/build');
  });

  it('shows markup a recording printed as text, never as HTML', () => {
    const hostile = '<img src=x onerror="window.__pwned=1"> found <b>it</b>';
    const { container } = render(
      <HighlightedSnippet
        text={hostile}
        matchStart={hostile.indexOf('found')}
        matchLength={5}
        clippedStart={false}
        clippedEnd={false}
      />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe(hostile);
    expect(container.querySelector('mark')?.textContent).toBe('found');
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('keeps out-of-range positions inside the text', () => {
    const { container } = render(
      <HighlightedSnippet text="abc" matchStart={10} matchLength={4} clippedStart={false} clippedEnd={false} />,
    );
    expect(container.textContent).toBe('abc');
    expect(container.querySelector('mark')).toBeNull();
  });
});
