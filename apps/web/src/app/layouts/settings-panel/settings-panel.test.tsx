// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signOut } from '../../../lib/session';
import { DEFAULT_THEME_SETTINGS } from '../../theme/theme-settings';
import { THEME_SETTINGS_KEY } from '../../theme/theme-storage';
import { renderShell } from '../testing/render-shell';
// Loaded up front so the panel's lazy import answers at once, whatever the machine's load.
import './settings-panel';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  signOut();
  localStorage.clear();
});

const saved = () => JSON.parse(localStorage.getItem(THEME_SETTINGS_KEY) ?? 'null') as Record<string, unknown> | null;
const layout = () => screen.getByTestId('shell-layout').getAttribute('data-layout');

async function openPanel() {
  const customize = screen.getByRole('button', { name: 'Customize' });
  // A click focuses the button in a browser; the panel hands focus back to it on closing.
  customize.focus();
  fireEvent.click(customize);
  return screen.findByRole('dialog', { name: 'Customize the console' }, { timeout: 5000 });
}

describe('theme settings panel', () => {
  it('opens from the Customize button, labels every control and closes with Escape back to the button', async () => {
    renderShell();
    const customize = screen.getByRole('button', { name: 'Customize' });
    const panel = await openPanel();
    for (const name of [
      'Theme mode',
      'Theme style',
      'Colors',
      'Layout',
      'Header',
      'Footer',
      'Navigation style',
      'Route transition',
      'Text direction',
      'Data',
    ]) {
      expect(within(panel).getByRole('region', { name })).toBeTruthy();
    }
    expect(within(panel).getByRole('radiogroup', { name: 'Navigation style' })).toBeTruthy();
    expect(within(panel).getAllByRole('radio', { hidden: false }).length).toBe(11 + 6 + 3);
    expect(within(panel).getByRole('group', { name: 'Theme mode' })).toBeTruthy();
    expect(within(panel).getByRole('group', { name: 'Colors' }).querySelectorAll('button')).toHaveLength(12);
    expect(within(panel).getByLabelText('Primary color')).toBeTruthy();
    expect(within(panel).getByLabelText('Secondary color (hex)')).toBeTruthy();
    expect(within(panel).getByRole('switch', { name: 'Show the footer' })).toBeTruthy();
    // Spec §2.5: the Use Mock Data switch, off until the local flag says true.
    const mock = within(within(panel).getByRole('region', { name: 'Data' })).getByRole('switch', {
      name: 'Use Mock Data',
    });
    expect(mock).toHaveProperty('checked', false);
    fireEvent.keyDown(panel, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Customize the console' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(customize));
  });

  it('switches the navigation style at once and saves it', async () => {
    renderShell();
    expect(layout()).toBe('header-user');
    const panel = await openPanel();
    fireEvent.click(within(panel).getByRole('radio', { name: 'Mini sidebar, on hover' }));
    expect(layout()).toBe('mini');
    expect(screen.getByTestId('mini-rail')).toBeTruthy();
    expect(saved()?.navStyle).toBe('mini');
  });

  it('changes mode, style, layout, header, footer and transition, each saved', async () => {
    renderShell();
    const panel = await openPanel();
    const choose = (group: string, option: string) =>
      fireEvent.click(within(within(panel).getByRole('group', { name: group })).getByRole('button', { name: option }));
    choose('Theme mode', 'Semi-dark');
    choose('Theme style', 'Modern');
    choose('Layout', 'Boxed');
    choose('Header', 'Light');
    choose('Footer', 'Fixed');
    fireEvent.click(within(panel).getByRole('switch', { name: 'Show the footer' }));
    fireEvent.click(within(panel).getByRole('radio', { name: 'Slide up' }));
    expect(saved()).toMatchObject({
      mode: 'semi-dark',
      themeStyle: 'modern',
      layoutType: 'boxed',
      headerType: 'light',
      footerType: 'fixed',
      footer: false,
      routeTransition: 'slideUp',
    });
    expect(
      within(within(panel).getByRole('group', { name: 'Theme mode' }))
        .getByRole('button', { name: 'Semi-dark' })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    expect(screen.getByTestId('shell-layout').getAttribute('data-layout-type')).toBe('boxed');
    // Semi-dark: light content under a dark sidebar.
    expect(getComputedStyle(document.body).backgroundColor.replace(/\s/g, '')).toMatch(/rgb\(244,246,251\)|#f4f6fb/i);
  });

  it('applies a preset and custom colours, and checks the hex text', async () => {
    renderShell();
    const panel = await openPanel();
    const presets = within(panel).getByRole('group', { name: 'Colors' });
    expect(within(presets).getByRole('button', { name: 'Azure' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(presets).getByRole('button', { name: 'Teal' }));
    expect(saved()).toMatchObject({ primary: '#00796B', secondary: '#26A69A' });
    expect(within(presets).getByRole('button', { name: 'Teal' }).getAttribute('aria-pressed')).toBe('true');
    const hex = within(panel).getByLabelText<HTMLInputElement>('Primary color (hex)');
    expect(hex.value).toBe('#00796B');

    fireEvent.change(hex, { target: { value: '#12345' } });
    expect(within(panel).getByText('Use the form #RRGGBB')).toBeTruthy();
    expect(saved()?.primary).toBe('#00796B');
    fireEvent.change(hex, { target: { value: '#123456' } });
    expect(saved()?.primary).toBe('#123456');
    // A custom pair matches no preset.
    expect(within(presets).queryByRole('button', { pressed: true })).toBeNull();
    fireEvent.change(within(panel).getByLabelText('Secondary color'), { target: { value: '#abcdef' } });
    expect(saved()?.secondary).toBe('#ABCDEF');
    expect(within(panel).getByLabelText<HTMLInputElement>('Secondary color (hex)').value).toBe('#ABCDEF');
  });

  it('forces the direction, and Reset to defaults brings back every default and forgets the saved ones', async () => {
    renderShell({ settings: { mode: 'light', navStyle: 'drawer' } });
    const panel = await openPanel();
    fireEvent.click(within(panel).getByRole('radio', { name: 'Right to left' }));
    expect(document.documentElement.dir).toBe('rtl');
    fireEvent.click(within(panel).getByRole('button', { name: 'Reset to defaults' }));
    expect(localStorage.getItem(THEME_SETTINGS_KEY)).toBeNull();
    expect(document.documentElement.dir).toBe('ltr');
    expect(layout()).toBe(DEFAULT_THEME_SETTINGS.navStyle);
    expect(within(panel).getByRole('radio', { name: 'Follow the language' })).toHaveProperty('checked', true);
  });
});
