import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useId, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { LoadError } from '../../../components/LoadError';
import { PageHeader } from '../../../components/PageHeader';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useCatalog } from '../api/get-catalog';
import type { Tool, Workflow } from '../api/types';
import { CatalogCard } from './CatalogCard';
import { toolIcon, workflowIcon } from './catalog-icons';
import { RubricFromSheetDialog } from './RubricFromSheetDialog';

/** One column on phones, two on tablets, three on desktops. */
const GRID = {
  display: 'grid',
  gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))' },
  gap: 2,
  listStyle: 'none',
  m: 0,
  p: 0,
} as const;

/**
 * The catalogue (`/tools`): ready-made assistants that open a chat (or, for the rubric tool, a
 * dialog), and workflows that fill a form and write a document.
 */
export function ToolsPage() {
  useDocumentTitle('Tools');
  const catalog = useCatalog();
  const [rubricOpen, setRubricOpen] = useState(false);

  return (
    <>
      <PageHeader
        title="Tools"
        subtitle="Tools are ready-made assistants you chat with. Workflows ask a few questions, then write the document for you."
      />
      {catalog.isPending && <CatalogSkeleton />}
      {catalog.isError && (
        <LoadError
          message="We couldn't load the tools."
          onRetry={() => void catalog.refetch()}
          retrying={catalog.isFetching}
        />
      )}
      {catalog.data && (
        <>
          <Section title="Tools" empty="No tools are available yet." count={catalog.data.tools.length}>
            {catalog.data.tools.map((tool) => (
              <ToolCard key={tool.id} tool={tool} onOpenRubric={() => setRubricOpen(true)} />
            ))}
          </Section>
          <Section title="Workflows" empty="No workflows are available yet." count={catalog.data.workflows.length}>
            {catalog.data.workflows.map((workflow) => (
              <WorkflowCard key={workflow.id} workflow={workflow} />
            ))}
          </Section>
        </>
      )}
      <RubricFromSheetDialog open={rubricOpen} onClose={() => setRubricOpen(false)} />
    </>
  );
}

function Section({ title, empty, count, children }: { title: string; empty: string; count: number; children: ReactNode }) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ '& + &': { mt: 5 } }}>
      <Typography id={headingId} variant="h2" sx={{ fontSize: '1.375rem', mb: 2 }}>
        {title}
      </Typography>
      {count === 0 ? (
        <Typography color="text.secondary">{empty}</Typography>
      ) : (
        <Box component="ul" aria-labelledby={headingId} sx={GRID}>
          {children}
        </Box>
      )}
    </Box>
  );
}

function ToolCard({ tool, onOpenRubric }: { tool: Tool; onOpenRubric: () => void }) {
  const label = `Start ${tool.title}`;
  return (
    <Box component="li" sx={{ minWidth: 0 }}>
      <CatalogCard
        icon={toolIcon(tool.id)}
        title={tool.title}
        description={tool.description}
        action={
          tool.kind === 'rubric' ? (
            <Button variant="contained" aria-label={label} aria-haspopup="dialog" onClick={onOpenRubric}>
              Start
            </Button>
          ) : (
            <Button
              variant="contained"
              aria-label={label}
              component={RouterLink}
              to={`/tools/${encodeURIComponent(tool.id)}/chat`}
            >
              Start
            </Button>
          )
        }
      />
    </Box>
  );
}

function WorkflowCard({ workflow }: { workflow: Workflow }) {
  return (
    <Box component="li" sx={{ minWidth: 0 }}>
      <CatalogCard
        icon={workflowIcon(workflow.id)}
        title={workflow.title}
        description={workflow.description}
        action={
          <Button
            variant="outlined"
            aria-label={`Start ${workflow.title}`}
            component={RouterLink}
            to={`/workflows/${encodeURIComponent(workflow.id)}`}
          >
            Start
          </Button>
        }
      />
    </Box>
  );
}

function CatalogSkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading tools" role="status">
      <Skeleton variant="text" width={120} height={36} sx={{ mb: 1 }} />
      <Box sx={GRID}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={210} sx={{ borderRadius: '12px' }} />
        ))}
      </Box>
    </Box>
  );
}
