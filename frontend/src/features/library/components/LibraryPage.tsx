import AddRounded from '@mui/icons-material/AddRounded';
import LibraryBooksOutlined from '@mui/icons-material/LibraryBooksOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** The team library. Empty for now: assignments, rubrics and folders arrive in later issues. */
export function LibraryPage() {
  useDocumentTitle('Library');

  return (
    <>
      <Typography variant="h1" sx={{ mb: 3 }}>
        Library
      </Typography>
      <Paper
        variant="outlined"
        sx={{
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          textAlign: 'center',
          gap: 2,
          px: { xs: 3, sm: 6 },
          py: { xs: 6, sm: 8 },
          borderRadius: '12px',
        }}
      >
        <Box
          sx={{
            width: 56,
            height: 56,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'rgba(23, 97, 107, 0.08)',
            color: 'primary.main',
          }}
        >
          <LibraryBooksOutlined aria-hidden="true" />
        </Box>
        <Typography sx={{ maxWidth: 420 }}>Your team&apos;s assignments and rubrics will appear here.</Typography>
        <Button variant="contained" startIcon={<AddRounded />} disabled>
          New assignment
        </Button>
      </Paper>
    </>
  );
}
