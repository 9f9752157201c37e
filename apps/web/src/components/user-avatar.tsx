import Avatar from '@mui/material/Avatar';

/** The letter an avatar shows without a photo: the first of the name, else of the email. */
export function avatarLetter(name: string | null | undefined, email: string): string {
  const source = (name ?? '').trim() || email.trim();
  return source.charAt(0).toUpperCase();
}

/** The user's photo if present, otherwise the first letter of the name or email (spec §2.5). */
export function UserAvatar(props: {
  name: string | null;
  email: string;
  photoURL?: string | undefined;
  size?: number;
}) {
  const size = props.size ?? 36;
  return (
    <Avatar
      src={props.photoURL}
      alt=""
      sx={{
        width: size,
        height: size,
        fontSize: size * 0.45,
        fontWeight: 600,
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
      }}
    >
      {avatarLetter(props.name, props.email)}
    </Avatar>
  );
}
