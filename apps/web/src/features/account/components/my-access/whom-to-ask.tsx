import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';

/** Whom to ask for access: the people who may change tunnel definitions, as mail links. */
export function WhomToAsk({ contacts }: { contacts: readonly string[] }) {
  const { t } = useTranslation();
  if (contacts.length === 0) return <Typography variant="body2">{t('account.access.askAdministrator')}</Typography>;
  return (
    <Typography variant="body2">
      {t('account.access.askThese')}{' '}
      {contacts.map((email, index) => (
        <Fragment key={email}>
          {index > 0 ? ', ' : null}
          <Link href={`mailto:${email}`} dir="ltr" sx={{ unicodeBidi: 'isolate', overflowWrap: 'anywhere' }}>
            {email}
          </Link>
        </Fragment>
      ))}
    </Typography>
  );
}
