import Avatar from '@mui/material/Avatar';

/** Initials for an avatar without a picture: "Ada Lovelace" → "AL", "ada" → "A". */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const letters = parts.length > 1 ? [parts[0][0], parts[parts.length - 1][0]] : [parts[0][0]];
  return letters.join('').toUpperCase();
}

/** Props for {@link UserAvatar}. */
export interface UserAvatarProps {
  name: string;
  image?: string | null;
  /** Diameter in pixels. */
  size?: number;
}

/**
 * A person's picture, or their initials on the brand colour. Decorative: show the name beside it.
 * The initials are drawn like a picture (generated content, hidden from assistive technology), not
 * as text, so a button showing an avatar keeps its visible text within its name (WCAG 2.5.3).
 */
export function UserAvatar({ name, image, size = 40 }: UserAvatarProps) {
  return (
    <Avatar
      src={image ?? undefined}
      alt=""
      aria-hidden
      sx={{
        width: size,
        height: size,
        fontSize: Math.round(size * 0.4),
        bgcolor: 'primary.main',
        '& [data-initials]::before': { content: 'attr(data-initials)' },
      }}
    >
      <span data-initials={initials(name)} />
    </Avatar>
  );
}
