import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import type { TerminalSink } from '../replay/replay-engine';

const BASE_FONT = 14;
const MIN_FONT = 6;
const MAX_FONT = 16;

/**
 * A read-only xterm.js terminal at the recorded session's size. The session's columns must stay
 * as recorded (full-screen programs drew for them), so instead of changing the columns to fit the
 * page, the font shrinks or grows until they fit its width, and until its rows fit the window's
 * height above `reserveBelow` pixels (the player's controls stay in view without scrolling).
 */
export class TerminalHost implements TerminalSink {
  /** The xterm.js terminal. */
  readonly terminal: Terminal;
  private readonly fit = new FitAddon();
  private observer: ResizeObserver | null = null;
  private element: HTMLElement | null = null;
  private readonly onWindowResize = () => this.fitFont();
  /** The font by height for one room and size (fontByHeight). */
  private heightFit: { key: string; font: number } | undefined;

  constructor(
    cols: number,
    rows: number,
    private readonly reserveBelow = 0,
  ) {
    this.terminal = new Terminal({
      cols,
      rows,
      disableStdin: true,
      cursorBlink: false,
      scrollback: 5000,
      fontSize: BASE_FONT,
      fontFamily: '"DejaVu Sans Mono", Menlo, Consolas, "Liberation Mono", monospace',
      theme: { background: '#101014', foreground: '#e4e4e7' },
    });
    this.terminal.loadAddon(this.fit);
  }

  /** Shows the terminal in the element and keeps its font fitted to the element's width. */
  open(element: HTMLElement): void {
    this.terminal.open(element);
    this.element = element;
    this.fitFont();
    this.observer = new ResizeObserver(() => this.fitFont());
    this.observer.observe(element);
    window.addEventListener('resize', this.onWindowResize);
  }

  /** Writes output (escape sequences included). */
  write(data: string): void {
    this.terminal.write(data);
  }

  /** Settles once xterm.js has parsed everything written so far. */
  flushed(): Promise<void> {
    return new Promise((resolve) => this.terminal.write('', resolve));
  }

  /** A session without a terminal writes bare line feeds; a terminal would draw them as a staircase. */
  setConvertEol(on: boolean): void {
    this.terminal.options.convertEol = on;
  }

  /** Clears the screen, the scrollback and every mode, as a fresh terminal. */
  reset(): void {
    this.terminal.reset();
  }

  /** Takes the session's new size. */
  resize(cols: number, rows: number): void {
    if (cols <= 0 || rows <= 0) return;
    if (cols === this.terminal.cols && rows === this.terminal.rows) return;
    this.terminal.resize(cols, rows);
    this.fitFont();
  }

  /** Frees the terminal and its observer. */
  dispose(): void {
    this.observer?.disconnect();
    window.removeEventListener('resize', this.onWindowResize);
    this.terminal.dispose();
  }

  /** The font at which the rows end `reserveBelow` above the window's bottom (at the page's top). */
  private fontByHeight(current: number): number {
    const screen = this.element?.querySelector('.xterm-screen');
    if (!this.element || !screen || this.reserveBelow <= 0) return MAX_FONT;
    const height = screen.getBoundingClientRect().height;
    // Where the frame lies in the page (not the viewport), so a scrolled page fits the same.
    const top = this.element.getBoundingClientRect().top + window.scrollY;
    const room = window.innerHeight - top - this.reserveBelow;
    if (height <= 0 || room <= 0) return MAX_FONT;
    // Computed once for a given room and size, then only ever lowered: a row's height is whole
    // pixels, so the proportion gave two fonts in turn, each resize observed starting the next,
    // and the controls below never stood still (a click on them timed out).
    const key = `${Math.round(room)}|${this.terminal.cols}x${this.terminal.rows}`;
    if (this.heightFit?.key !== key) {
      this.heightFit = { key, font: Math.floor(((current * room) / height) * 2) / 2 };
    } else if (height > room + 1 && current <= this.heightFit.font) {
      this.heightFit.font = current - 0.5;
    }
    return this.heightFit.font;
  }

  private fitFont(): void {
    const proposed = this.fit.proposeDimensions();
    if (!proposed || proposed.cols <= 0) return;
    const current = this.terminal.options.fontSize ?? BASE_FONT;
    const byWidth = Math.floor(((current * proposed.cols) / this.terminal.cols) * 2) / 2;
    const next = Math.min(MAX_FONT, Math.max(MIN_FONT, Math.min(byWidth, this.fontByHeight(current))));
    if (Math.abs(next - current) >= 0.5) this.terminal.options.fontSize = next;
  }
}
