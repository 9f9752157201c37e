import ApiOutlined from '@mui/icons-material/ApiOutlined';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import MemoryOutlined from '@mui/icons-material/MemoryOutlined';
import StorageOutlined from '@mui/icons-material/StorageOutlined';
import TerminalOutlined from '@mui/icons-material/TerminalOutlined';
import VideoLibraryOutlined from '@mui/icons-material/VideoLibraryOutlined';
import type { TFunction } from 'i18next';
import type { IconComponent } from '../../../components/icon-type';

/** Components the console has a name and an icon for; others (a cluster's pods) show as the server names them. */
const KNOWN: Record<string, IconComponent> = {
  api: ApiOutlined,
  gateway: TerminalOutlined,
  database: StorageOutlined,
  'recording-storage': VideoLibraryOutlined,
  'agent-hub': HubOutlined,
  redis: MemoryOutlined,
};

/** The icon of a component. */
export function componentIcon(name: string): IconComponent {
  return KNOWN[name] ?? DnsOutlined;
}

/** A component's name in the console language ('API', 'SSH gateway' …), else its own name. */
export function componentTitle(name: string, t: TFunction): string {
  return name in KNOWN ? t(`systemStatus.components.${name}.title`) : name;
}

/** What a known component does, in one line; empty for others. */
export function componentRole(name: string, t: TFunction): string {
  return name in KNOWN ? t(`systemStatus.components.${name}.role`) : '';
}
