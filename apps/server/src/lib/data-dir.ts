import fs from 'node:fs';
import path from 'node:path';

/** Modes of the data folder (issue 14): only the server's own user reads or writes anything in it. */
export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;

/** A file or folder in the data folder that this process cannot make owner-only. */
export class DataDirPermissionError extends Error {}

/**
 * Makes the data folder owner-only, creating it when missing: the folder and every folder in it
 * 0700, every file 0600 (database files, recordings, outbox, secret.key, locks). Run at every
 * start, so a folder made by an older version (0755 folders, 0644/0666 files) is tightened on
 * upgrade. Symbolic links are neither followed nor changed. Answers how many entries it changed.
 */
export function secureDataDir(dataDir: string): number {
  fs.mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  let changed = 0;
  const tighten = (file: string, mode: number): void => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // gone while we walked
      throw error;
    }
    if ((stat.mode & 0o7777) === mode) return;
    try {
      fs.chmodSync(file, mode);
      changed += 1;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      throw new DataDirPermissionError(
        `Cannot make ${file} readable by its owner only (${code ?? 'error'}): the data folder must belong to the user ` +
          `that runs Gatehouse. Give it to that user (chown -R), or set GATEHOUSE_DATA_DIR to a folder it owns.`,
      );
    }
  };
  const walk = (dir: string): void => {
    tighten(dir, DATA_DIR_MODE);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) tighten(full, DATA_FILE_MODE);
      // Links, sockets and pipes are left alone: a link could point outside the folder.
    }
  };
  walk(dataDir);
  return changed;
}
