// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, renderWithProviders } from '../../../components/testing/render-with-providers';
import type { AgentItem } from '../api/list-agents';
import { defaultConfig } from '../config/host-config';
import { ConfigDialog } from './config-dialog';

const ID = '6f1c1f3e-8d7e-4c5b-9a51-1d2f3e4a5b6c';
const agent: AgentItem = {
  id: ID,
  hostname: 'win-01',
  os: 2,
  version: '2.0.0',
  connected: true,
  state: 'connected',
  last_seen: '2026-01-01T00:00:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
  config: defaultConfig(2),
};
const CONFIG = `api/agent/${ID}/config`;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function openDialog(canModify = true) {
  renderWithProviders(<ConfigDialog agent={agent} canModify={canModify} onClose={vi.fn()} />);
  return screen.findByRole('dialog', { name: 'Configuration of win-01' });
}

describe('ConfigDialog', () => {
  it('shows every field with its spec default, bitrate in Mbps and 3389 for Windows', async () => {
    fakeServer({ [`GET ${CONFIG}`]: [200, { ...defaultConfig(2), recording_bitrate: '2500k' }] });
    const dialog = await openDialog();
    expect(await within(dialog).findByLabelText('Bitrate')).toHaveProperty('value', '2.5');
    expect(within(dialog).getByLabelText('Frames per second')).toHaveProperty('value', '5');
    expect(within(dialog).getByLabelText('Whitelisted ports')).toHaveProperty('value', '3389');
    expect(within(dialog).getByText('Default: ERROR')).toBeTruthy();
    expect(within(dialog).getByText('Default: 2')).toBeTruthy();
    expect(within(dialog).getByText(/Default: 3389/)).toBeTruthy();
  });

  it('saves the log level, Mbps as kbps and the whitelist without its trailing comma', async () => {
    const seen = fakeServer({
      [`GET ${CONFIG}`]: [200, defaultConfig(2)],
      [`POST ${CONFIG}`]: [200, { ...defaultConfig(2), message: 'Configuration saved.', applied: true }],
    });
    const dialog = await openDialog();
    fireEvent.mouseDown(await within(dialog).findByLabelText('Log level'));
    fireEvent.click(await screen.findByRole('option', { name: 'DEBUG' }));
    fireEvent.change(within(dialog).getByLabelText('Bitrate'), { target: { value: '3' } });
    fireEvent.change(within(dialog).getByLabelText('Whitelisted ports'), { target: { value: '22, 3389,' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save configuration' }));
    expect(await screen.findByText('Configuration saved. It is applied on the host.')).toBeTruthy();
    expect(seen.find((request) => request.method === 'POST')?.body).toEqual({
      loglevel: 'DEBUG',
      recording_enabled: false,
      recording_fps: 5,
      recording_scale: 1,
      recording_bitrate: '3000k',
      whitelist: [22, 3389],
    });
  });

  it('says the change waits for the host when it is not connected', async () => {
    fakeServer({
      [`GET ${CONFIG}`]: [200, defaultConfig(2)],
      [`POST ${CONFIG}`]: [200, { ...defaultConfig(2), message: 'Configuration saved.', applied: false }],
    });
    const dialog = await openDialog();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Save configuration' }));
    expect(await screen.findByText('Configuration saved. It applies when the host reconnects.')).toBeTruthy();
  });

  it('names a bad port and sends nothing', async () => {
    const seen = fakeServer({ [`GET ${CONFIG}`]: [200, defaultConfig(2)] });
    const dialog = await openDialog();
    fireEvent.change(await within(dialog).findByLabelText('Whitelisted ports'), { target: { value: '22, 70000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save configuration' }));
    expect(
      within(dialog).getByText('“70000” is not a port: use whole numbers from 1 to 65535, separated by commas.'),
    ).toBeTruthy();
    expect(seen.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('shows the server’s 400 message, which names the field', async () => {
    const message = 'recording_bitrate must be between 100k and 50000k';
    fakeServer({
      [`GET ${CONFIG}`]: [200, defaultConfig(2)],
      [`POST ${CONFIG}`]: [400, { statusCode: 400, error: 'Bad Request', message }],
    });
    const dialog = await openDialog();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Save configuration' }));
    expect(await within(dialog).findByText(message)).toBeTruthy();
  });

  it('gives holders of list-host alone the fields read-only and no Save', async () => {
    fakeServer({ [`GET ${CONFIG}`]: [200, defaultConfig(2)] });
    const dialog = await openDialog(false);
    expect(await within(dialog).findByText(/needs the modify-agent-config permission/)).toBeTruthy();
    expect(within(dialog).getByLabelText('Whitelisted ports')).toHaveProperty('readOnly', true);
    expect(within(dialog).queryByRole('button', { name: 'Save configuration' })).toBeNull();
  });
});
