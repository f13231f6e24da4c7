import AddRounded from '@mui/icons-material/AddRounded';
import ChevronRightRounded from '@mui/icons-material/ChevronRightRounded';
import TableChartOutlined from '@mui/icons-material/TableChartOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { LoadError } from '../../../components/LoadError';
import { PageHeader } from '../../../components/PageHeader';
import { formatDate } from '../../../lib/format-date';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useRubricList } from '../../../lib/rubrics';
import { criteriaCount } from '../format';
import type { Rubric } from '../types';

/** Desktop columns: name, criteria count, last updated, chevron. */
const COLUMNS = { xs: '1fr auto', sm: 'minmax(0, 1fr) 120px 140px 24px' };

/** The team's rubrics (`/rubrics`): name, number of criteria, last updated; each opens the editor. */
export function RubricsPage() {
  useDocumentTitle('Rubrics');
  const rubrics = useRubricList();

  return (
    <>
      <PageHeader
        title="Rubrics"
        subtitle="Describe what good work looks like, criterion by criterion."
        actions={
          <Button component={RouterLink} to="/rubrics/new" variant="contained" startIcon={<AddRounded />}>
            New rubric
          </Button>
        }
      />

      {rubrics.isPending && <RubricListSkeleton />}
      {rubrics.isError && (
        <LoadError
          message="We couldn't load your rubrics."
          onRetry={() => void rubrics.refetch()}
          retrying={rubrics.isFetching}
        />
      )}
      {rubrics.data && rubrics.data.length === 0 && <EmptyRubrics />}
      {rubrics.data && rubrics.data.length > 0 && <RubricList rubrics={rubrics.data} />}
    </>
  );
}

function RubricList({ rubrics }: { rubrics: Rubric[] }) {
  return (
    <Paper variant="outlined" sx={{ borderRadius: '12px', overflow: 'hidden' }}>
      <Box
        aria-hidden="true"
        sx={{
          display: { xs: 'none', sm: 'grid' },
          gridTemplateColumns: COLUMNS,
          gap: 2,
          px: 2.5,
          py: 1.25,
          bgcolor: '#fbfaf7',
          borderBottom: 1,
          borderColor: 'divider',
          color: 'text.secondary',
          typography: 'body2',
          fontWeight: 600,
        }}
      >
        <span>Name</span>
        <span>Criteria</span>
        <span>Last updated</span>
        <span />
      </Box>
      <Box component="ul" aria-label="Rubrics" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {rubrics.map((rubric) => (
          <Box component="li" key={rubric._id} sx={{ '& + &': { borderTop: 1, borderColor: 'divider' } }}>
            <RubricRow rubric={rubric} />
          </Box>
        ))}
      </Box>
    </Paper>
  );
}

function RubricRow({ rubric }: { rubric: Rubric }) {
  const updated = formatDate(rubric.updatedAt);
  const count = criteriaCount(rubric.criteria?.length ?? 0);
  return (
    <Box
      component={RouterLink}
      to={`/rubrics/${rubric._id}`}
      sx={{
        display: 'grid',
        gridTemplateColumns: COLUMNS,
        alignItems: 'center',
        gap: 2,
        px: 2.5,
        py: 1.75,
        color: 'text.primary',
        textDecoration: 'none',
        '&:hover': { bgcolor: 'rgba(23, 97, 107, 0.04)' },
        '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0 }}>
        <Box
          aria-hidden="true"
          sx={{
            flex: '0 0 auto',
            width: 36,
            height: 36,
            borderRadius: '8px',
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'rgba(138, 75, 8, 0.1)',
            color: '#8a4b08',
          }}
        >
          <TableChartOutlined fontSize="small" />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{rubric.name}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ display: { sm: 'none' } }}>
            {count}
            {updated && ` · Updated ${updated}`}
          </Typography>
        </Box>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'none', sm: 'block' } }}>
        {count}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'none', sm: 'block' } }}>
        {updated}
      </Typography>
      <ChevronRightRounded aria-hidden="true" sx={{ color: 'text.secondary' }} />
    </Box>
  );
}

function EmptyRubrics() {
  return (
    <EmptyState icon={<TableChartOutlined />}>
      <Typography variant="h2" sx={{ fontSize: '1.25rem' }}>
        No rubrics yet
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 440 }}>
        A rubric lists criteria and the levels of achievement for each. Rubric feedback assignments grade
        against one.
      </Typography>
      <Button component={RouterLink} to="/rubrics/new" variant="outlined" startIcon={<AddRounded />}>
        Create your first rubric
      </Button>
    </EmptyState>
  );
}

function RubricListSkeleton() {
  return (
    <Paper variant="outlined" sx={{ borderRadius: '12px', px: 2.5, py: 1 }} aria-busy="true" aria-label="Loading rubrics" role="status">
      {[0, 1, 2].map((i) => (
        <Box key={i} sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 1.5 }}>
          <Skeleton variant="rounded" width={36} height={36} />
          <Box sx={{ flex: 1 }}>
            <Skeleton width="40%" />
            <Skeleton width="20%" />
          </Box>
        </Box>
      ))}
    </Paper>
  );
}
