import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ComponentType } from 'react';
import { assignmentQueryOptions, type AssignmentWithResults } from '../../features/assignments/api/get-assignment';
import { useAssignmentFunction } from '../../features/assignments/api/get-function';
import { assignmentKeys } from '../../features/assignments/api/keys';
import { AssignmentPage } from '../../features/assignments/components/page/AssignmentPage';
// Imported from their files rather than the features' index files: this page's chunk then holds
// only what it draws (docs/performance.md, "First load").
import { usesAnswerBoxes } from '../../features/answer-boxes/lib/uses-answer-boxes';
import { flattenQuestions } from '../../features/answer-boxes/lib/questions';
import { ClassroomImportButton } from '../../features/classroom/components/ClassroomImportButton';
import { SendGradesButton } from '../../features/classroom/components/SendGradesButton';
import { ExportMenu } from '../../features/exports/components/ExportMenu';
import { assignmentGradingRefetchInterval } from '../../features/results/lib/normalize';
import { PrintReportsButton } from '../../features/reports/components/PrintReportsButton';
import { ReleaseButton } from '../../features/release/components/ReleaseButton';
import { ReleaseRowState } from '../../features/release/components/ReleaseRowState';
import { SubmissionsPanel } from '../../features/submissions/components/SubmissionsPanel';
import { submissionsRefetchInterval } from '../../features/submissions/lib/polling';
import { lazyComponent } from '../../components/lazy-component';
import { processes } from '../processes';

// The student link sits last on the page: it loads after the page has drawn.
const StudentLinkCard = lazyComponent(() => import('../../features/student/components/StudentLinkCard').then((m) => m.StudentLinkCard));
// Only a handwritten grade assignment draws answer boxes, once its definition has arrived.
const AnswerBoxesPanel = lazyComponent(() => import('../../features/answer-boxes/components/AnswerBoxesPanel').then((m) => m.AnswerBoxesPanel));
const LtiStatusCard = lazyComponent(() => import('../../features/lti/components/LtiStatusCard').then((m) => m.LtiStatusCard));

function Submissions({ data }: { data: AssignmentWithResults }) {
  const { assignment } = data;
  // The same cached definition the page shows: its top-level questions label the CSV mapping.
  const definition = useAssignmentFunction(assignment._id, assignment.type);
  const questions = definition.data?.questions?.map((q) => q.questionText) ?? [];
  return (
    <SubmissionsPanel
      assignment={assignment}
      submissions={data.submissions}
      classSize={assignment.submissions?.length ?? 0}
      questions={questions}
      assignmentQueryKey={assignmentKeys.detail(assignment._id)}
      actions={<ClassroomImportButton assignment={assignment} assignmentQueryKey={assignmentKeys.detail(assignment._id)} />}
      toolbar={({ chosenIds: selectedIds, submissions, counts, classroomSubmissions, questionsAddedIds, questionsAddedReviewed, clearSelection }) => {
        return (
          <>
            <ExportMenu assignmentId={assignment._id} selectedIds={selectedIds} />
            <PrintReportsButton assignmentId={assignment._id} submissionIds={selectedIds} />
            <ReleaseButton
              assignmentId={assignment._id}
              selectedIds={selectedIds}
              reviewedCount={counts.reviewed}
              questionsAddedIds={questionsAddedIds}
              questionsAddedReviewed={questionsAddedReviewed}
              onReleased={clearSelection}
            />
            <SendGradesButton
              assignmentId={assignment._id}
              submissions={data.partial ? submissions : data.submissions}
              selectedIds={selectedIds}
              classroomSubmissions={classroomSubmissions}
            />
          </>
        );
      }}
      renderResultExtra={(s) => <ReleaseRowState assignmentId={assignment._id} submissionId={s._id} name={s.studentName || s.name} />}
    />
  );
}

/** Answer boxes of a handwritten grade assignment, labelled from the page's cached definition. */
function AnswerBoxes({ data }: { data: AssignmentWithResults }) {
  const { assignment } = data;
  const definition = useAssignmentFunction(assignment._id, assignment.type);
  const questions = useMemo(() => flattenQuestions(definition.data?.questions), [definition.data]);
  // Submissions arrive untyped here; the panel only needs to know when the ready count changes.
  const ready = data.submissions.filter((s) => (s as { status?: unknown } | null)?.status === 'ready').length;
  if (!definition.data) return null;
  return <AnswerBoxesPanel assignment={assignment} questions={questions} readySubmissions={ready} />;
}

/**
 * The class summary of a class too large to load every result on open: collapsed, with a button
 * that loads them (the full assignment read) and shows the type's summary. Nobody waits seconds
 * for a panel below the table.
 */
function SummaryOnRequest({ data, Summary }: { data: AssignmentWithResults; Summary: ComponentType<{ data: AssignmentWithResults }> }) {
  const [open, setOpen] = useState(false);
  const full = useQuery({ ...assignmentQueryOptions(data.assignment._id), enabled: open });
  if (open && full.data) return <Summary data={full.data} />;
  return (
    <Card component="section" aria-label="Class summary">
      <CardContent sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1.5 }}>
        <Typography color="text.secondary">
          {`The class summary reads all ${(data.assignment.submissions?.length ?? 0).toLocaleString('en-US')} results.`}
        </Typography>
        <Button variant="outlined" size="small" onClick={() => setOpen(true)} loading={open && full.isPending}>
          Show class summary
        </Button>
      </CardContent>
    </Card>
  );
}

/** Polls the assignment every 2 s while submissions are read or graded, or an agreement check or summary runs. */
function refetchInterval(data: AssignmentWithResults | undefined): number | false {
  return submissionsRefetchInterval(data?.submissions, data?.functionResults) || assignmentGradingRefetchInterval(data?.assignment);
}

/**
 * The assignment page with the panels of other features under it: the submissions, the class
 * summary and agreement check (the type module's `Summary`, app/processes), and the student
 * submission link. Its definition is drawn by the type module's `Definition`. The
 * page's one assignment query lists the submissions and their results, and is polled while work
 * is in progress.
 */
export function AssignmentRoute() {
  return (
    <AssignmentPage
      refetchInterval={refetchInterval}
      definitionFor={(type) => processes.get(type)?.Definition}
      panels={(data) => {
        const Summary = processes.get(data.assignment.type)?.Summary;
        return (
          <>
            <Submissions data={data} />
            {usesAnswerBoxes(data.assignment) && <AnswerBoxes data={data} />}
            {Summary && (data.partial ? <SummaryOnRequest data={data} Summary={Summary} /> : <Summary data={data} />)}
            <StudentLinkCard assignmentId={data.assignment._id} />
            <LtiStatusCard assignmentId={data.assignment._id} />
          </>
        );
      }}
    />
  );
}
