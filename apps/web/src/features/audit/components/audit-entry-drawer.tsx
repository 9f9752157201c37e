import CloseOutlined from '@mui/icons-material/CloseOutlined';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { EmailText } from '../../../components/email-text';
import type { AuditRow } from '../api/list-audit';
import { formatAuditTime } from './audit-time';
import { OutcomeChip } from './outcome-chip';

/** One labelled value; identifiers read left to right. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary', mt: { xs: 1, sm: 0 } }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 500, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

/** The selected entry in a side panel (full width on a phone): every field, the detail as JSON. */
export function AuditEntryDrawer({ row, onClose }: { row: AuditRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const ltr = (text: string | number | null) => <span dir="ltr">{text ?? '-'}</span>;
  return (
    <Drawer
      anchor="right"
      open={row !== null}
      onClose={onClose}
      slotProps={{
        paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { width: { xs: '100%', sm: 480 }, maxWidth: '100%' } },
      }}
    >
      {row ? (
        <Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 3, pt: 2, pb: 1.5 }}>
            <Typography id={titleId} variant="h2" component="h2" sx={{ flex: 1, minWidth: 0 }}>
              {t('audit.detail.title')}
            </Typography>
            <IconButton onClick={onClose} aria-label={t('common.close')} edge="end">
              <CloseOutlined />
            </IconButton>
          </Box>
          <Divider />
          <Box sx={{ px: 3, py: 2.5, display: 'flex', flexDirection: 'column', gap: 3 }}>
            <Box
              component="dl"
              sx={{
                display: 'grid',
                gridTemplateColumns: { xs: '1fr', sm: 'minmax(120px, max-content) 1fr' },
                columnGap: 3,
                rowGap: { xs: 0.25, sm: 1.25 },
                m: 0,
              }}
            >
              <Fact label={t('audit.columns.at')}>{formatAuditTime(row.at)}</Fact>
              <Fact label={t('audit.columns.actor')}>
                <span dir="ltr">{row.actor ? <EmailText>{row.actor}</EmailText> : '-'}</span>
              </Fact>
              <Fact label={t('audit.columns.action')}>{ltr(row.action)}</Fact>
              <Fact label={t('audit.columns.outcome')}>
                <OutcomeChip outcome={row.outcome} />
              </Fact>
              <Fact label={t('audit.columns.status')}>{ltr(row.status)}</Fact>
              <Fact label={t('audit.columns.target')}>{ltr(row.target)}</Fact>
              <Fact label={t('audit.columns.source')}>{ltr(row.source)}</Fact>
              <Fact label={t('audit.detail.id')}>{ltr(row.id)}</Fact>
            </Box>
            <Box>
              <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
                {t('audit.detail.more')}
              </Typography>
              {row.detail ? (
                <Box
                  component="pre"
                  dir="ltr"
                  sx={{
                    m: 0,
                    p: 1.5,
                    borderRadius: 1,
                    bgcolor: 'action.hover',
                    fontSize: 13,
                    whiteSpace: 'pre-wrap',
                    overflowWrap: 'anywhere',
                  }}
                >
                  {JSON.stringify(row.detail, null, 2)}
                </Box>
              ) : (
                <Typography variant="body2" color="text.secondary">
                  {t('audit.detail.none')}
                </Typography>
              )}
            </Box>
          </Box>
        </Box>
      ) : null}
    </Drawer>
  );
}
