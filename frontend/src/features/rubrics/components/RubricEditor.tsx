import AddRounded from '@mui/icons-material/AddRounded';
import ArrowBackRounded from '@mui/icons-material/ArrowBackRounded';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import IosShareRounded from '@mui/icons-material/IosShareRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { lengthHint } from '../../../lib/length-hint';
import { useUnsavedChangesGuard, type UnsavedChangesWording } from '../../../components/UnsavedChangesDialog';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { useCreateRubric } from '../api/create-rubric';
import { useDeleteRubric } from '../api/delete-rubric';
import { useShareRubric } from '../api/share-rubric';
import { useUpdateRubric } from '../api/update-rubric';
import {
  draftFromRubric,
  draftReducer,
  draftSignature,
  newDraft,
  RUBRIC_NAME_PLACEHOLDER,
  toRubricInput,
  type DraftAction,
  type RubricDraft,
} from '../rubric-draft';
import type { Rubric } from '../types';
import { controlId, CriterionCard } from './CriterionCard';
import { lazyComponent } from '../../../components/lazy-component';

// The dialogs are closed when the editor opens: they load after it has drawn (docs/performance.md, "First load").

/** Longest rubric name the API accepts. */
const MAX_RUBRIC_NAME = 200;
/** How this page asks before unsaved changes are lost. */
const LEAVE_WORDING: UnsavedChangesWording = {
  title: 'Leave without saving?',
  description: 'Your changes to this rubric have not been saved and will be lost.',
  confirmLabel: 'Leave without saving',
  cancelLabel: 'Cancel',
};
const ShareDialog = lazyComponent(() => import('../../../components/ShareDialog').then((m) => m.ShareDialog));
const DeleteRubricDialog = lazyComponent(() => import('../../../components/DeleteRubricDialog').then((m) => m.DeleteRubricDialog));

/** Props for {@link RubricEditor}. */
export interface RubricEditorProps {
  /** The saved rubric to edit; absent for a new one. */
  rubric?: Rubric;
}

/** Which element takes focus after a change, worked out from the draft as it is after the change. */
type FocusRequest = (draft: RubricDraft) => string | undefined;

/** Where focus goes after a change, and what a screen reader hears about it. */
function afterChange(draft: RubricDraft, action: DraftAction): { focus?: FocusRequest; announce?: string } {
  switch (action.type) {
    case 'addCriterion': {
      const number = draft.criteria.length + 1;
      return {
        focus: (next) => controlId.criterionDescription(next.criteria[next.criteria.length - 1].key),
        announce: `Criterion ${number} added`,
      };
    }
    case 'removeCriterion': {
      if (draft.criteria.length <= 1) return {};
      const at = Math.min(action.criterion, draft.criteria.length - 2);
      return {
        focus: (next) => controlId.criterionDescription(next.criteria[at].key),
        announce: `Criterion ${action.criterion + 1} removed`,
      };
    }
    case 'moveCriterion': {
      const { key } = draft.criteria[action.criterion];
      const to = action.criterion + action.by;
      if (to < 0 || to >= draft.criteria.length) return {};
      const last = draft.criteria.length - 1;
      const up = to === 0 ? false : to === last ? true : action.by < 0;
      return {
        focus: () => (up ? controlId.criterionUp(key) : controlId.criterionDown(key)),
        announce: `Criterion ${action.criterion + 1} moved to position ${to + 1}`,
      };
    }
    case 'addLevel': {
      const criterion = draft.criteria[action.criterion];
      return {
        focus: (next) => {
          const levels = next.criteria[action.criterion].levels;
          return controlId.levelDescription(levels[levels.length - 1].key);
        },
        announce: `Level ${criterion.levels.length + 1} added to criterion ${action.criterion + 1}`,
      };
    }
    case 'removeLevel': {
      const criterion = draft.criteria[action.criterion];
      if (criterion.levels.length <= 1) return {};
      const at = Math.min(action.level, criterion.levels.length - 2);
      return {
        focus: (next) => controlId.levelDescription(next.criteria[action.criterion].levels[at].key),
        announce: `Level ${action.level + 1} removed`,
      };
    }
    case 'moveLevel': {
      const levels = draft.criteria[action.criterion].levels;
      const to = action.level + action.by;
      if (to < 0 || to >= levels.length) return {};
      const { key } = levels[action.level];
      const earlier = to === 0 ? false : to === levels.length - 1 ? true : action.by < 0;
      return {
        focus: () => (earlier ? controlId.levelEarlier(key) : controlId.levelLater(key)),
        announce: `Level ${action.level + 1} moved to position ${to + 1}`,
      };
    }
    default:
      return {};
  }
}

/**
 * The rubric editor: name, criteria as rows and their levels as columns (stacked on phones),
 * point ranges per criterion. Saving sends the rubric as it is; the server's validation messages
 * come back as error toasts. Leaving with unsaved changes asks first.
 */
export function RubricEditor({ rubric }: RubricEditorProps) {
  const [draft, dispatch] = useReducer(draftReducer, rubric, (r) => (r ? draftFromRubric(r) : newDraft()));
  const [savedSignature] = useState(() => draftSignature(draft));
  const dirty = draftSignature(draft) !== savedSignature;
  const [showErrors, setShowErrors] = useState(false);
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [shareOpen, setShareOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);

  const navigate = useNavigate();
  const { showToast } = useToast();
  const create = useCreateRubric();
  const update = useUpdateRubric();
  const remove = useDeleteRubric();
  const share = useShareRubric();
  const saving = create.isPending || update.isPending;
  const once = useSingleFlight({ lockAfterSuccess: true });

  useDocumentTitle(rubric ? `Edit ${rubric.name}` : 'New rubric');

  useEffect(() => {
    if (!focusRequest) return;
    setFocusRequest(null);
    const id = focusRequest(draft);
    if (id) document.getElementById(id)?.focus();
  }, [focusRequest, draft]);

  // Closing the tab, reloading or leaving for another page with unsaved changes: we ask.
  const guard = useUnsavedChangesGuard(dirty, LEAVE_WORDING);

  // Stable, so criteria that did not change skip re-rendering while the teacher types.
  const latestDraft = useRef(draft);
  useLayoutEffect(() => {
    latestDraft.current = draft;
  }, [draft]);
  const change = useCallback((action: DraftAction) => {
    const { focus, announce } = afterChange(latestDraft.current, action);
    dispatch(action);
    if (focus) setFocusRequest(() => focus);
    if (announce) setAnnouncement(announce);
  }, []);

  const leaveTo = (path: string) => {
    guard.allowLeave();
    navigate(path);
  };

  // A double click saves once: a new rubric is created once, and a saved one is not saved again
  // while the page leaves.
  const save = (event?: FormEvent) => {
    event?.preventDefault();
    void once(async () => {
      setShowErrors(true);
      const input = toRubricInput(draft);
      if (rubric) await update.mutateAsync({ rubricId: rubric._id, ...input });
      else await create.mutateAsync(input);
      showToast({ type: 'success', message: 'Rubric saved' });
      leaveTo('/rubrics');
    }).catch((error: unknown) =>
      showToast({ type: 'error', message: errorMessage(error, "Couldn't save the rubric. Please try again.") }),
    );
  };

  const confirmDelete = () => {
    if (!rubric) return;
    // Spec §8: a failed delete shows no toast and the dialog stays open; a refusal (the rubric is
    // in use) shows in the dialog.
    remove.mutate(
      { rubricId: rubric._id },
      {
        onSuccess: () => {
          setDeleteOpen(false);
          showToast({ type: 'success', message: 'Rubric deleted' });
          leaveTo('/rubrics');
        },
      },
    );
  };

  const nameEmpty = draft.name.trim() === '';

  return (
    <Box component="form" noValidate onSubmit={save} aria-label={rubric ? 'Edit rubric' : 'New rubric'}>
      <Link
        component={RouterLink}
        to="/rubrics"
        underline="hover"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 1.5, fontWeight: 500 }}
      >
        <ArrowBackRounded fontSize="small" aria-hidden="true" />
        All rubrics
      </Link>

      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 2,
          mb: 3,
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'baseline', flexWrap: 'wrap', columnGap: 2, rowGap: 0.5, minWidth: 0 }}>
          <Typography variant="h1">{rubric ? 'Edit rubric' : 'New rubric'}</Typography>
          {dirty && (
            <Typography variant="body2" color="text.secondary" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
              <Box component="span" aria-hidden="true" sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'warning.main' }} />
              Unsaved changes
            </Typography>
          )}
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, width: { xs: '100%', sm: 'auto' } }}>
          {rubric && (
            <>
              <Button variant="outlined" startIcon={<IosShareRounded />} onClick={() => setShareOpen(true)}>
                Share
              </Button>
              <Button variant="outlined" color="error" startIcon={<DeleteOutlineRounded />} onClick={() => setDeleteOpen(true)}>
                Delete
              </Button>
            </>
          )}
          <Button type="submit" variant="contained" loading={saving} sx={{ ml: { sm: 1 }, flex: { xs: '1 0 auto', sm: '0 0 auto' } }}>
            Save rubric
          </Button>
        </Box>
      </Box>

      <TextField
        label="Rubric name"
        value={draft.name}
        placeholder={RUBRIC_NAME_PLACEHOLDER}
        onChange={(event) => change({ type: 'setName', name: event.target.value })}
        error={showErrors && nameEmpty}
        helperText={showErrors && nameEmpty ? 'Rubric name cannot be empty' : lengthHint(draft.name, MAX_RUBRIC_NAME)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { maxLength: MAX_RUBRIC_NAME } }}
        sx={{ mb: 3, maxWidth: 640, '& .MuiInputBase-root': { bgcolor: 'background.paper' } }}
      />

      <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 2, mb: 1.5 }}>
        <Typography variant="h2" sx={{ fontSize: '1.25rem' }}>
          Criteria
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'none', md: 'block' } }}>
          Each criterion is a row; its levels run left to right.
        </Typography>
      </Box>
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 760 }}>
        Level 1 is the best. Without point ranges, level 1 of a criterion with three levels is worth 3 points, level 2 is
        worth 2 and level 3 is worth 1. With point ranges on, each level is worth the points you set, and the AI picks a
        number within the range.
      </Typography>

      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {draft.criteria.map((criterion, index) => (
          <CriterionCard
            key={criterion.key}
            criterion={criterion}
            index={index}
            count={draft.criteria.length}
            showErrors={showErrors}
            onChange={change}
          />
        ))}
      </Box>

      <Button
        variant="outlined"
        startIcon={<AddRounded />}
        onClick={() => change({ type: 'addCriterion' })}
        sx={{ mt: 2, width: { xs: '100%', sm: 'auto' }, borderStyle: 'dashed', bgcolor: 'background.paper' }}
      >
        Add criterion
      </Button>

      <Box aria-live="polite" sx={visuallyHidden}>
        {announcement}
      </Box>

      {rubric && (
        <>
          <ShareDialog
            open={shareOpen}
            name={rubric.name}
            noun="rubric"
            onShare={(email) => share.mutateAsync({ rubricId: rubric._id, email })}
            onClose={() => setShareOpen(false)}
          />
          <DeleteRubricDialog
            open={deleteOpen}
            name={rubric.name}
            pending={remove.isPending}
            error={remove.error}
            onConfirm={confirmDelete}
            onClose={() => {
              remove.reset();
              setDeleteOpen(false);
            }}
          />
        </>
      )}
      {guard.dialog}
    </Box>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  p: 0,
  m: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;
