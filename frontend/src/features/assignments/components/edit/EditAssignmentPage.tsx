import CheckRounded from '@mui/icons-material/CheckRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type ComponentType, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { PageSpinner } from '../../../../components/PageSpinner';
import { useUnsavedChangesGuard } from '../../../../components/UnsavedChangesDialog';
import { useToast } from '../../../../components/toast';
import { errorMessage } from '../../../../lib/api-client';
import { assignmentTypeLabel } from '../../../../lib/assignment-type';
import { useDocumentTitle } from '../../../../lib/use-document-title';
import { assignmentQueryOptions } from '../../api/get-assignment';
import { useAssignmentFunction } from '../../api/get-function';
import { assignmentKeys, libraryKeys } from '../../api/keys';
import type { Assignment, AssignmentFunction } from '../../api/types';
import { updateAssignment } from '../../api/update-assignment';
import { updateFunction } from '../../api/update-function';
import { FormFooter } from '../wizard/FormFooter';
import { NameField, nameProblem } from '../wizard/NameField';
import { useReleasedCount } from './api';
import type { AssignmentSettings, DefinitionDraft, EditorProps } from './editor-props';

/** Props for {@link EditAssignmentPage}. */
export interface EditAssignmentPageProps {
  /** The definition editor of an assignment of `type`: its type module's (app/processes). */
  editorFor: (type: string) => ComponentType<EditorProps> | undefined;
}

/** Where an edited definition's results stand, in a sentence for the teacher. */
export const EDIT_NOTE =
  'Points changes re-total every result at once. A changed or added question, criterion or highlighter marks ' +
  'the results graded before it as “Graded against an earlier version”; “Grade changed questions again” on the ' +
  'assignment page grades them again. Every change is kept in the assignment’s history.';

/**
 * What saving does to results already released: their students see the change at once. On the
 * page: "3 results are released to students: they will see any change you save here at once (anything
 * added is not marked until the work is graded again)."; asked before saving:
 * "… they will see these changes at once …".
 */
export function releasedNote(released: number, asked = false): string {
  const who = released === 1 ? '1 result is released to its student' : `${released} results are released to students`;
  const what = asked ? 'these changes' : 'any change you save here';
  return `${who}: they will see ${what} at once (anything added is not marked until the work is graded again).`;
}

function EditForm({
  assignment,
  fn,
  Editor,
  released,
}: {
  assignment: Assignment;
  fn: AssignmentFunction;
  Editor: ComponentType<EditorProps>;
  /** How many of its results are released to students now. */
  released: number;
}) {
  useDocumentTitle(`Edit ${assignment.name}`);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { showToast } = useToast();
  const [name, setName] = useState(assignment.name);
  const [settings, setSettings] = useState<AssignmentSettings>({
    isHandWritten: assignment.isHandWritten,
    provideInstantFeedback: assignment.provideInstantFeedback,
  });
  // The editor reports its draft on every change, the first time with what was loaded: that first
  // report is what the draft is compared with to tell whether anything changed.
  const [edits, setEdits] = useState<{ loaded: string; draft: DefinitionDraft } | null>(null);
  const draft = edits?.draft ?? null;
  const setDraft = useCallback(
    (next: DefinitionDraft) => setEdits((e) => ({ loaded: e?.loaded ?? JSON.stringify(next.input), draft: next })),
    [],
  );
  const [saving, setSaving] = useState(false);
  // Save waits for this confirmation when released results would change.
  const [confirming, setConfirming] = useState(false);
  const back = `/assignment/${assignment._id}`;

  const problem = nameProblem(name) ?? draft?.problem ?? null;
  const dirty =
    name.trim() !== assignment.name ||
    settings.isHandWritten !== assignment.isHandWritten ||
    settings.provideInstantFeedback !== assignment.provideInstantFeedback ||
    (edits !== null && JSON.stringify(edits.draft.input) !== edits.loaded);
  const guard = useUnsavedChangesGuard(dirty);

  // What a student with a released result sees: the name and the definition (not the switches).
  const seenByStudents = name.trim() !== assignment.name || (edits !== null && JSON.stringify(edits.draft.input) !== edits.loaded);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (problem || saving) return;
    if (released > 0 && seenByStudents) setConfirming(true);
    else void save();
  }

  async function save() {
    setConfirming(false);
    setSaving(true);
    try {
      const settingsChanged =
        name.trim() !== assignment.name ||
        settings.isHandWritten !== assignment.isHandWritten ||
        settings.provideInstantFeedback !== assignment.provideInstantFeedback;
      if (settingsChanged) {
        await updateAssignment({ id: assignment._id, name: name.trim(), type: assignment.type, ...settings });
      }
      if (draft) {
        await updateFunction({ functionId: fn._id, assignmentId: assignment._id, ...draft.input });
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: assignmentKeys.detail(assignment._id) }),
        queryClient.invalidateQueries({ queryKey: libraryKeys.all }),
      ]);
      // Said again once saved: the released results changed with it.
      const shown =
        released > 0 && seenByStudents
          ? released === 1
            ? ' The released result shows them now.'
            : ` The ${released} released results show them now.`
          : '';
      showToast({ type: 'success', message: `Changes saved.${shown}` });
      guard.allowLeave();
      void navigate(back);
    } catch (error) {
      showToast({ type: 'error', message: errorMessage(error, 'Failed to save the changes.') });
      setSaving(false);
    }
  }

  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ maxWidth: 880, mx: 'auto' }}>
      <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 600, mb: 0.5 }}>
        {assignmentTypeLabel(assignment.type)} assignment
      </Typography>
      <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
        Edit assignment
      </Typography>
      <Alert severity="info" sx={{ mt: 2, mb: released > 0 ? 2 : 3 }}>
        {EDIT_NOTE}
      </Alert>
      {released > 0 && (
        <Alert severity="warning" sx={{ mb: 3 }}>
          {releasedNote(released)}
        </Alert>
      )}
      <Card>
        <CardContent sx={{ p: { xs: 2, sm: 3 }, '&:last-child': { pb: { xs: 2.5, sm: 3 } } }}>
          <Stack spacing={3}>
            <NameField value={name} onChange={setName} />
            <Editor fn={fn} settings={settings} onSettings={setSettings} onChange={setDraft} />
          </Stack>
        </CardContent>
      </Card>
      <FormFooter
        back={
          <Button component={RouterLink} to={back} color="inherit" disabled={saving}>
            Cancel
          </Button>
        }
        problem={problem}
        submitLabel="Save changes"
        submitIcon={<CheckRounded />}
        submitting={saving}
      />
      <ConfirmDialog
        open={confirming}
        title="Students will see these changes"
        description={`${releasedNote(released, true)} Save them now?`}
        confirmLabel="Save changes"
        cancelLabel="Keep editing"
        destructive={false}
        onConfirm={() => void save()}
        onClose={() => setConfirming(false)}
      />
      {guard.dialog}
    </Box>
  );
}

/**
 * Route `/assignment/:assignmentId/edit`: the assignment's name, switches and definition in the
 * editors its wizard uses, filled with what is saved; Save applies them (issue 19, item 2).
 */
export function EditAssignmentPage({ editorFor }: EditAssignmentPageProps) {
  const { assignmentId = '' } = useParams();
  const assignment = useQuery(assignmentQueryOptions(assignmentId));
  const fn = useAssignmentFunction(assignmentId, assignment.data?.assignment.type);
  // Not known (still asked, or unreadable): the page says nothing and saves without asking.
  const released = useReleasedCount(assignmentId).data ?? 0;
  if (assignment.isPending || (assignment.data && fn.isPending)) return <PageSpinner label="Loading assignment" />;
  if (assignment.isError || fn.isError || !assignment.data || !fn.data) {
    return (
      <Alert severity="error" sx={{ maxWidth: 880, mx: 'auto' }}>
        We couldn&apos;t load this assignment.
      </Alert>
    );
  }
  const Editor = editorFor(assignment.data.assignment.type);
  if (!Editor) return <Alert severity="error">This assignment type cannot be edited.</Alert>;
  // keyed by the definition, so a save elsewhere starts the form again from it
  return <EditForm key={fn.data._id} assignment={assignment.data.assignment} fn={fn.data} Editor={Editor} released={released} />;
}
