import fs from 'node:fs';
import path from 'node:path';

/** Thrown when another live process holds the data folder. */
export class DataDirLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes an exclusive lock on the data folder (PGlite has none between processes). A lock left by
 * a process that died is taken over. Returns a function that releases it.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'gatehouse.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(
          `Another Gatehouse server (process ${holder}) is already using the data folder ${dataDir}. ` +
            'Stop that server first, or start this one with GATEHOUSE_DATA_DIR set to a different folder.',
        );
      }
      fs.unlinkSync(file); // Stale lock from a process that is gone.
    }
  }
  throw new DataDirLockedError(`Could not lock the data folder ${dataDir}; another server is starting there.`);
}
