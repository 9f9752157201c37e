/**
 * Issue 18: the browser desktop's clipboard is governed by the rdp definition.
 * - tunnel_definitions.rdp_clipboard: 'both' (the default: copy and paste both ways), 'to-desktop'
 *   (the browser may paste into the remote desktop, nothing comes back), 'from-desktop' (text
 *   copied on the remote desktop reaches the browser, nothing goes in) or 'off'. The gateway
 *   enforces it (FreeRDP's clipboard channel and x11vnc's selection handling), not the browser.
 */
export const sql = `
ALTER TABLE tunnel_definitions ADD COLUMN IF NOT EXISTS rdp_clipboard text NOT NULL DEFAULT 'both';
DO $$ BEGIN
  ALTER TABLE tunnel_definitions ADD CONSTRAINT tunnel_definitions_rdp_clipboard_check
    CHECK (rdp_clipboard IN ('both', 'to-desktop', 'from-desktop', 'off'));
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
`;
