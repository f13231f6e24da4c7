import ArrowBackRounded from '@mui/icons-material/ArrowBackRounded';
import SearchOffRounded from '@mui/icons-material/SearchOffRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { LoadError } from '../../../components/LoadError';
import { PageHeader } from '../../../components/PageHeader';
import { PageSpinner } from '../../../components/PageSpinner';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useCatalog } from '../api/get-catalog';
import type { Workflow } from '../api/types';
import { emptyAnswers, workflowInputs, type WorkflowAnswers } from '../lib/workflow-inputs';
import { WorkflowForm } from './WorkflowForm';
import { WorkflowSummary } from './WorkflowSummary';

/**
 * What shows a workflow's run: the chat that writes its document. The chat is another feature's,
 * so the app hands it in (app/routes/ToolRoutes.tsx) and features stay apart.
 */
export interface WorkflowRunViewProps {
  /** The workflow to run once, with the answers it was started with. */
  workflow: { id: string; inputs: Record<string, string> };
  /** The tool the run's chat continues with (the workflow's id). */
  toolId: string;
  /** Page heading: the workflow's title. */
  title: string;
  /** Shown under the heading: the answers, with a way back to change them. */
  intro: ReactNode;
}

/** Props for {@link WorkflowPage}. */
export interface WorkflowPageProps {
  /** Draws a run of the workflow (the chat). */
  RunView: ComponentType<WorkflowRunViewProps>;
}

/** `/workflows/:workflowId`: the workflow's form, then the document it writes. */
export function WorkflowPage({ RunView }: WorkflowPageProps) {
  const { workflowId = '' } = useParams();
  const catalog = useCatalog();
  const workflow = catalog.data?.workflows.find((w) => w.id === workflowId);
  useDocumentTitle(workflow?.title ?? (catalog.data ? 'Workflow not found' : 'Workflow'));

  if (catalog.isPending) return <PageSpinner label="Loading the workflow" />;
  if (catalog.isError) {
    return (
      <LoadError
        message="We couldn't load this workflow."
        onRetry={() => void catalog.refetch()}
        retrying={catalog.isFetching}
      />
    );
  }
  if (!workflow) return <WorkflowNotFound />;
  // A new instance per workflow, so moving from one workflow to another starts afresh.
  return <WorkflowRunner key={workflow.id} workflow={workflow} RunView={RunView} />;
}

/** A run of the workflow: the answers it was started with, and a key that names its history entry. */
interface Run {
  key: string;
  inputs: Record<string, string>;
}

/** History state of the entry that shows a run's result. */
interface RunState {
  workflowRun?: string;
}

/**
 * The form, and once it is sent the run. Starting a run pushes a history entry, so the browser's
 * back button returns to the form (answers kept) and back again to /tools. The run's chat stays
 * mounted (hidden) while the form is shown, so "forward" brings the same document back instead
 * of running the workflow again; a reload forgets the run and shows the form.
 */
function WorkflowRunner({ workflow, RunView }: { workflow: Workflow; RunView: ComponentType<WorkflowRunViewProps> }) {
  const location = useLocation();
  const navigate = useNavigate();
  const [answers, setAnswers] = useState<WorkflowAnswers>(() => emptyAnswers(workflow.fields));
  const [missing, setMissing] = useState<string[]>([]);
  const [run, setRun] = useState<Run | null>(null);
  const runs = useRef(0);
  const showing = run !== null && (location.state as RunState | null)?.workflowRun === run.key;

  function start() {
    runs.current += 1;
    const next: Run = { key: `${Date.now()}-${runs.current}`, inputs: workflowInputs(workflow.fields, answers) };
    setRun(next);
    void navigate(location.pathname, { state: { workflowRun: next.key } satisfies RunState });
  }

  function changeAnswers() {
    // The result's entry always sits right after the form's, which it was pushed from.
    void navigate(-1);
  }

  return (
    <>
      <Button component={RouterLink} to="/tools" startIcon={<ArrowBackRounded />} sx={{ mb: 2, ml: -1 }}>
        All tools
      </Button>
      {!showing && (
        <>
          <PageHeader title={workflow.title} subtitle={workflow.description} />
          <WorkflowForm
            fields={workflow.fields}
            answers={answers}
            onChange={setAnswers}
            missing={missing}
            onMissingChange={setMissing}
            onSubmit={start}
          />
        </>
      )}
      {run && (
        <Box key={run.key} hidden={!showing}>
          <RunView
            workflow={{ id: workflow.id, inputs: run.inputs }}
            toolId={workflow.id}
            title={workflow.title}
            intro={<WorkflowSummary fields={workflow.fields} inputs={run.inputs} onChange={changeAnswers} />}
          />
        </Box>
      )}
    </>
  );
}

function WorkflowNotFound() {
  return (
    <EmptyState icon={<SearchOffRounded />}>
      <Typography variant="h1" sx={{ fontSize: '1.5rem' }}>
        Workflow not found
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 440 }}>
        This workflow doesn't exist, or it is no longer offered. The tools page lists the ones you can use.
      </Typography>
      <Button component={RouterLink} to="/tools" variant="contained">
        Back to tools
      </Button>
    </EmptyState>
  );
}
