import type SvgIcon from '@mui/material/SvgIcon';

/** The type of an icon component from @mui/icons-material. */
export type IconComponent = typeof SvgIcon;
