import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { Outlet } from 'react-router';
import { Wordmark } from '../../../components/Wordmark';

/**
 * Frame for the student pages (no sign-in): the Markwell wordmark above a narrow column, and no
 * teacher navigation. Fits a phone.
 */
export function StudentLayout() {
  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column' }}>
      <Box component="header" sx={{ bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider' }}>
        <Container maxWidth="md" sx={{ py: 1.5, display: 'flex', alignItems: 'center' }}>
          <Wordmark size={28} />
        </Container>
      </Box>
      <Container component="main" maxWidth="md" sx={{ flex: 1, py: { xs: 3, sm: 5 }, px: { xs: 2, sm: 3 } }}>
        <Outlet />
      </Container>
    </Box>
  );
}
