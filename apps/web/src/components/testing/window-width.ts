/** Sets the window width happy-dom answers media queries with (lg starts at 1200). */
export function setWindowWidth(width: number): void {
  (window as unknown as { happyDOM: { setViewport(v: { width: number; height: number }): void } }).happyDOM.setViewport(
    { width, height: 900 },
  );
}
