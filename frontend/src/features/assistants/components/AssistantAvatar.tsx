import Avatar from '@mui/material/Avatar';
import { avatarColour, avatarLetter } from '../lib/avatar-colour';

/** Props of {@link AssistantAvatar}. */
export interface AssistantAvatarProps {
  title: string;
  imageURL?: string;
  /** Side in pixels. */
  size?: number;
}

/**
 * An assistant's picture, or the first letter of its title on a colour of its own. Decorative:
 * the title is always shown beside it.
 */
export function AssistantAvatar({ title, imageURL, size = 48 }: AssistantAvatarProps) {
  return (
    <Avatar
      variant="rounded"
      src={imageURL || undefined}
      alt=""
      sx={{
        width: size,
        height: size,
        borderRadius: '12px',
        fontSize: Math.round(size * 0.45),
        fontWeight: 600,
        bgcolor: avatarColour(title),
        color: '#fff',
      }}
    >
      {avatarLetter(title)}
    </Avatar>
  );
}
