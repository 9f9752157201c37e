import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import type { TerminalSink } from '../replay/replay-engine';

const BASE_FONT = 14;
/**
 * The smallest font: small enough that a wide, tall session (160x48 and more) fits a phone's width
 * and the room above the controls. Unreadable that small, but whole, with the controls in view;
 * a larger window shows it larger (a terminal that scrolled sideways, or pushed the controls below
 * the fold, hid the controls or half the screen instead).
 */
const MIN_FONT = 2;
const MAX_FONT = 16;
/** The font at actual size: readable on any screen; a terminal wider or taller than its box pans in it. */
export const ACTUAL_FONT = BASE_FONT;
/** The least height of the box at actual size, however little room the window leaves. */
const MIN_ACTUAL_HEIGHT = 120;
/** The user's own panning (these events on the box) pauses following the cursor this long. */
const PAN_EVENTS = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
const FOLLOW_PAUSE_MS = 4000;

/**
 * How a terminal is drawn: 'fit' shrinks its font until the whole terminal fits (on a phone a wide
 * session becomes tiny), 'actual' keeps a readable font and lets the terminal pan inside its box.
 */
export type TerminalScale = 'fit' | 'actual';

/**
 * A read-only xterm.js terminal at the recorded session's size. The session's columns must stay
 * as recorded (full-screen programs drew for them), so instead of changing the columns to fit the
 * page, the font shrinks or grows until they fit its width, and until its rows fit the window's
 * height above `reserveBelow` pixels (the player's controls stay in view without scrolling, on a
 * phone too). At 'actual' scale the font stays ACTUAL_FONT instead, and the element's height is
 * capped at the same room: the terminal pans inside it, sideways and down, and the controls stay
 * in view.
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
  private scale: TerminalScale = 'fit';
  /** When the user last panned the box themselves (wheel, touch, pointer, keys): the cursor is not followed for a while. */
  private pannedAt = 0;
  private followFrame = 0;
  private readonly onUserPan = () => (this.pannedAt = Date.now());

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
    for (const type of PAN_EVENTS) element.addEventListener(type, this.onUserPan, { passive: true });
    this.terminal.onCursorMove(() => this.followSoon());
  }

  /** Follows the cursor once the terminal has drawn (at most once a frame, however fast it moves). */
  private followSoon(): void {
    if (this.scale !== 'actual' || this.followFrame) return;
    this.followFrame = requestAnimationFrame(() => {
      this.followFrame = 0;
      this.followCursor();
    });
  }

  /**
   * At actual size, keeps the cursor (where the session is typing) in the box as it plays: when it
   * leaves the part in view, the box pans to it, as an editor's view follows its caret. Not while the
   * user is panning the box themselves (FOLLOW_PAUSE_MS after their last wheel, touch, click or key).
   */
  private followCursor(): void {
    const frame = this.element;
    const screen = frame?.querySelector('.xterm-screen');
    if (!frame || !screen || this.scale !== 'actual') return;
    if (Date.now() - this.pannedAt < FOLLOW_PAUSE_MS) return;
    const box = frame.getBoundingClientRect();
    const area = screen.getBoundingClientRect();
    if (area.width <= 0 || area.height <= 0) return;
    const cell = { width: area.width / this.terminal.cols, height: area.height / this.terminal.rows };
    const buffer = this.terminal.buffer.active;
    // The cursor's cell, in the box's scrolled content (the screen's place in it, plus the cell's).
    const left = area.left - box.left + frame.scrollLeft + buffer.cursorX * cell.width;
    const top = area.top - box.top + frame.scrollTop + buffer.cursorY * cell.height;
    const margin = { x: cell.width * 4, y: cell.height };
    const next = { left: frame.scrollLeft, top: frame.scrollTop };
    if (left < frame.scrollLeft + margin.x) next.left = left - frame.clientWidth / 3;
    else if (left + cell.width > frame.scrollLeft + frame.clientWidth - margin.x)
      next.left = left + cell.width - (frame.clientWidth * 2) / 3;
    if (top < frame.scrollTop) next.top = top - margin.y;
    else if (top + cell.height > frame.scrollTop + frame.clientHeight)
      next.top = top + cell.height + margin.y - frame.clientHeight;
    if (next.left !== frame.scrollLeft || next.top !== frame.scrollTop)
      frame.scrollTo({ left: Math.max(0, next.left), top: Math.max(0, next.top) });
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

  /** Draws the terminal whole ('fit') or at a readable size, panned in its box ('actual'). */
  setScale(scale: TerminalScale): void {
    if (scale === this.scale) return;
    this.scale = scale;
    this.heightFit = undefined;
    this.fitFont();
    // At actual size the box opens where the session is (its cursor), not at its top-left corner.
    this.pannedAt = 0;
    this.followSoon();
  }

  /** Frees the terminal and its observer. */
  dispose(): void {
    this.observer?.disconnect();
    window.removeEventListener('resize', this.onWindowResize);
    if (this.followFrame) cancelAnimationFrame(this.followFrame);
    for (const type of PAN_EVENTS) this.element?.removeEventListener(type, this.onUserPan);
    this.terminal.dispose();
  }

  /** The font at which the rows end `reserveBelow` above the window's bottom (at the page's top). */
  private fontByHeight(current: number): number {
    const screen = this.element?.querySelector('.xterm-screen');
    if (!this.element || !screen || this.reserveBelow <= 0) return MAX_FONT;
    const height = screen.getBoundingClientRect().height;
    // Where the frame lies in the page (not the viewport), so a scrolled page fits the same.
    const room = this.room();
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

  /** Room for the terminal between the element's top (in the page) and `reserveBelow` above the window's bottom. */
  private room(): number {
    if (!this.element) return 0;
    const top = this.element.getBoundingClientRect().top + window.scrollY;
    return window.innerHeight - top - this.reserveBelow;
  }

  private fitFont(): void {
    if (this.scale === 'actual') {
      if (this.terminal.options.fontSize !== ACTUAL_FONT) this.terminal.options.fontSize = ACTUAL_FONT;
      // Capped to the room above the controls; the same cap each time, so observing it settles.
      if (this.element && this.reserveBelow > 0) {
        const cap = `${String(Math.max(MIN_ACTUAL_HEIGHT, Math.floor(this.room())))}px`;
        if (this.element.style.maxHeight !== cap) this.element.style.maxHeight = cap;
      }
      return;
    }
    if (this.element && this.element.style.maxHeight) this.element.style.maxHeight = '';
    const proposed = this.fit.proposeDimensions();
    if (!proposed || proposed.cols <= 0) return;
    const current = this.terminal.options.fontSize ?? BASE_FONT;
    const byWidth = Math.floor(((current * proposed.cols) / this.terminal.cols) * 2) / 2;
    const next = Math.min(MAX_FONT, Math.max(MIN_FONT, Math.min(byWidth, this.fontByHeight(current))));
    if (Math.abs(next - current) >= 0.5) this.terminal.options.fontSize = next;
  }
}
