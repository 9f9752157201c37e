import { LoadFailed as SharedLoadFailed } from '../../../components/load-failed';

/** A section that could not load: the server's reason and a retry button. */
export function LoadFailed(props: { error: unknown; onRetry: () => void }) {
  return <SharedLoadFailed {...props} messageId="settings.loadFailed" />;
}
