import CheckOutlined from '@mui/icons-material/CheckOutlined';
import TranslateOutlined from '@mui/icons-material/TranslateOutlined';
import type { Language } from '@gatehouse/contracts';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../lib/i18n';
import { LANGUAGE_CODES, isLanguage } from '../lib/languages';

/** Button and menu that switch the console language; names show in their own script. */
export function LanguageSwitcher({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const current: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  const open = anchor !== null;

  const choose = (language: Language) => {
    setAnchor(null);
    changeLanguage(language);
  };

  return (
    <>
      <Button
        color="inherit"
        aria-label={t('header.changeLanguage')}
        title={t('header.changeLanguage')}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        startIcon={<TranslateOutlined aria-hidden />}
        sx={{ minWidth: 0, px: 1.25, borderRadius: 2, '& .MuiButton-startIcon': compact ? { m: 0 } : {} }}
      >
        {compact ? null : <span lang={current}>{t(`languages.${current}`)}</span>}
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-label': t('header.languages'), dense: true } }}
      >
        {LANGUAGE_CODES.map((code) => (
          <MenuItem
            key={code}
            lang={code}
            selected={code === current}
            onClick={() => choose(code)}
            sx={{ minWidth: 180 }}
          >
            <ListItemIcon>{code === current ? <CheckOutlined fontSize="small" aria-hidden /> : null}</ListItemIcon>
            <ListItemText>{t(`languages.${code}`)}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
