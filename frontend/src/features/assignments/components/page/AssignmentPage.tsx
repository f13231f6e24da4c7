import ArrowBackRounded from '@mui/icons-material/ArrowBackRounded';
import BoltRounded from '@mui/icons-material/BoltRounded';
import DrawOutlined from '@mui/icons-material/DrawOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import TuneRounded from '@mui/icons-material/TuneRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState, type ComponentType, type ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { lazyComponent } from '../../../../components/lazy-component';
import { PageSpinner } from '../../../../components/PageSpinner';
import { ApiError } from '../../../../lib/api-client';
import { useDocumentTitle } from '../../../../lib/use-document-title';
import { assignmentPageQueryOptions, type AssignmentWithResults } from '../../api/get-assignment';
import type { AssignmentUsage } from '../../api/types';
import { assignmentTypeInfo, assignmentTypeLabel } from '../../../../lib/assignment-type';
import type { DefinitionProps } from './definition-props';
import { DetailList } from '../view/DetailList';
import { DefinitionView } from './DefinitionView';
import { HistoryList } from '../edit/HistoryList';
import { Section } from './Section';

// Loads when first opened: the page's first load does not carry the dialog (docs/performance.md, "First load").
const EditNameDialog = lazyComponent(() => import('./EditNameDialog').then((m) => m.EditNameDialog));

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function formatDate(value: string | undefined): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : dateFormat.format(date);
}

const countFormat = new Intl.NumberFormat('en');
const costFormat = new Intl.NumberFormat('en', { style: 'currency', currency: 'USD', maximumFractionDigits: 2, minimumFractionDigits: 2 });

/**
 * "12 model calls · 30,400 tokens (24,000 cached) · $0.05", or null before the AI has run (the cached
 * prompt tokens only when the provider cached some, the cost only when priced).
 */
export function formatUsage(usage: AssignmentUsage | undefined): string | null {
  if (!usage || usage.calls <= 0) return null;
  const cached = usage.cachedPromptTokens ?? 0;
  const parts = [
    `${countFormat.format(usage.calls)} model ${usage.calls === 1 ? 'call' : 'calls'}`,
    `${countFormat.format(usage.promptTokens + usage.completionTokens)} tokens` +
      (cached > 0 ? ` (${countFormat.format(cached)} cached)` : ''),
  ];
  if (usage.costUsd > 0) parts.push(usage.costUsd < 0.01 ? 'under $0.01' : costFormat.format(usage.costUsd));
  return parts.join(' · ');
}

function BackToLibrary() {
  return (
    <Link
      component={RouterLink}
      to="/library"
      underline="hover"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, fontWeight: 500, mb: 1.5 }}
    >
      <ArrowBackRounded aria-hidden="true" sx={{ fontSize: 18 }} />
      Library
    </Link>
  );
}

function NotFound() {
  useDocumentTitle('Assignment not found');
  return (
    <Box sx={{ maxWidth: 520, mx: 'auto', textAlign: 'center', py: { xs: 4, sm: 8 } }}>
      <Typography variant="h1">Assignment not found</Typography>
      <Typography color="text.secondary" sx={{ mt: 1.5, mb: 3 }}>
        It may have been deleted, or the link may belong to another team.
      </Typography>
      <Button component={RouterLink} to="/library" variant="contained">
        Back to library
      </Button>
    </Box>
  );
}

/** Props for {@link AssignmentPage}. */
export interface AssignmentPageProps {
  /**
   * Full-width panels under the definition and details (submissions, the student link …), given
   * the loaded assignment. Other features fill it; the app composes them, so one fragment may
   * hold several panels.
   */
  panels?: (data: AssignmentWithResults) => ReactNode;
  /**
   * How long to wait before fetching the assignment again, given its data (e.g. every 2 s while
   * submissions are being read), or false to stop. Unset: no polling.
   */
  refetchInterval?: (data: AssignmentWithResults | undefined) => number | false;
  /** The read-only definition of an assignment of `type`: its type module's (app/processes). */
  definitionFor?: (type: string) => ComponentType<DefinitionProps> | undefined;
}

function AssignmentView({
  data,
  panels,
  definitionFor,
}: {
  data: AssignmentWithResults;
  panels: AssignmentPageProps['panels'];
  definitionFor: AssignmentPageProps['definitionFor'];
}) {
  const { assignment } = data;
  useDocumentTitle(assignment.name);
  const [editing, setEditing] = useState(false);
  const created = formatDate(assignment.createdAt);
  const usage = formatUsage(assignment.usage);

  return (
    <>
      <BackToLibrary />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2, mb: 3 }}>
        <Box sx={{ minWidth: 0, flex: '1 1 320px' }}>
          <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
            {assignment.name}
          </Typography>
          <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, mt: 1.5 }} aria-label="Assignment type and settings">
            <Chip label={assignmentTypeLabel(assignment.type)} color="primary" size="small" sx={{ fontWeight: 600 }} />
            {assignment.isHandWritten && <Chip icon={<DrawOutlined />} label="Handwritten" size="small" variant="outlined" />}
            {assignment.provideInstantFeedback && (
              <Chip icon={<BoltRounded />} label="Instant feedback" size="small" variant="outlined" />
            )}
          </Stack>
        </Box>
        <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, flexShrink: 0 }}>
          <Button variant="outlined" startIcon={<TuneRounded />} component={RouterLink} to={`/assignment/${assignment._id}/edit`}>
            Edit assignment
          </Button>
          <Button variant="text" startIcon={<EditOutlined />} onClick={() => setEditing(true)}>
            Edit name
          </Button>
        </Stack>
      </Box>

      <Box
        sx={{
          display: 'grid',
          gap: 3,
          alignItems: 'start',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 1fr)' },
        }}
      >
        <Section title={assignmentTypeInfo(assignment.type)?.definitionTitle ?? 'Definition'}>
          <DefinitionView assignment={assignment} Definition={definitionFor?.(assignment.type)} />
        </Section>
        <Stack spacing={3} sx={{ minWidth: 0 }}>
          <Section title="Details">
            <DetailList
              items={[
                { term: 'Type', value: assignmentTypeLabel(assignment.type) },
                { term: 'Handwritten', value: assignment.isHandWritten ? 'Yes' : 'No' },
                { term: 'Instant feedback', value: assignment.provideInstantFeedback ? 'On' : 'Off' },
                ...(created ? [{ term: 'Created', value: created }] : []),
                ...(usage ? [{ term: 'AI use', value: usage }] : []),
              ]}
            />
          </Section>
          <Section title="History">
            <HistoryList assignmentId={assignment._id} />
          </Section>
        </Stack>
      </Box>

      {panels && (
        <Stack spacing={3} sx={{ mt: 3, minWidth: 0 }}>
          {panels(data)}
        </Stack>
      )}

      <EditNameDialog assignment={assignment} open={editing} onClose={() => setEditing(false)} />
    </>
  );
}

/**
 * Route `/assignment/:assignmentId`: an assignment, its definition read-only, and the panels
 * other features add (see {@link AssignmentPageProps}).
 */
export function AssignmentPage({ panels, refetchInterval, definitionFor }: AssignmentPageProps = {}) {
  const { assignmentId = '' } = useParams();
  const query = useQuery({
    ...assignmentPageQueryOptions(assignmentId),
    refetchInterval: refetchInterval ? (q) => refetchInterval(q.state.data) : false,
  });

  if (query.isPending) return <PageSpinner label="Loading assignment" />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <NotFound />;
    return (
      <>
        <BackToLibrary />
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              Try again
            </Button>
          }
        >
          We couldn&apos;t load this assignment.
        </Alert>
      </>
    );
  }
  return <AssignmentView data={query.data} panels={panels} definitionFor={definitionFor} />;
}
