import type { Components, Theme } from '@mui/material/styles';

/**
 * Mirrors the physical margins and offsets of the MUI parts the console uses, for right-to-left.
 * MUI expects @mui/stylis-plugin-rtl to flip its CSS; that package is not installed, so these
 * targeted overrides stand in for it (text fields, adornments, buttons with icons, alerts).
 */
export function rtlOverrides(): Components<Omit<Theme, 'components'>> {
  return {
    MuiInputLabel: {
      styleOverrides: {
        root: {
          '&.MuiInputLabel-formControl': { left: 'auto', right: 0, transformOrigin: 'top right' },
          '&.MuiInputLabel-outlined': { transform: 'translate(-14px, 16px) scale(1)' },
          '&.MuiInputLabel-outlined.MuiInputLabel-shrink': {
            transform: 'translate(-14px, -9px) scale(0.75)',
            transformOrigin: 'top right',
          },
        },
      },
    },
    MuiOutlinedInput: {
      styleOverrides: {
        notchedOutline: { textAlign: 'right' },
        root: {
          '&.MuiInputBase-adornedStart': { paddingLeft: 0, paddingRight: 14 },
          '&.MuiInputBase-adornedEnd': { paddingRight: 0, paddingLeft: 'var(--_trailingPad)' },
        },
        input: {
          '&.MuiInputBase-inputAdornedStart': { paddingLeft: 14, paddingRight: 0 },
          '&.MuiInputBase-inputAdornedEnd': { paddingRight: 14, paddingLeft: 0 },
        },
      },
    },
    MuiInputAdornment: {
      styleOverrides: {
        positionStart: { marginRight: 0, marginLeft: 8 },
        positionEnd: { marginLeft: 0, marginRight: 8 },
      },
    },
    MuiIconButton: {
      styleOverrides: { edgeStart: { marginLeft: 0, marginRight: -12 }, edgeEnd: { marginRight: 0, marginLeft: -12 } },
    },
    MuiButton: {
      styleOverrides: { startIcon: { marginRight: -4, marginLeft: 8 }, endIcon: { marginLeft: -4, marginRight: 8 } },
    },
    MuiAlert: {
      styleOverrides: { icon: { marginRight: 0, marginLeft: 12 }, action: { marginLeft: -8, marginRight: 'auto' } },
    },
    MuiFormHelperText: { styleOverrides: { root: { textAlign: 'right' } } },
  };
}
