import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import DriveFileMoveOutlined from '@mui/icons-material/DriveFileMoveOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import IosShareRounded from '@mui/icons-material/IosShareRounded';
import LibraryBooksOutlined from '@mui/icons-material/LibraryBooksOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo, useState, type DragEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { EmptyState } from '../../../components/EmptyState';
import { LoadError } from '../../../components/LoadError';
import { ShareDialog } from '../../../components/ShareDialog';
import { useToast } from '../../../components/toast';
import { errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format-date';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useDeleteAssignment } from '../api/delete-assignment';
import { useDeleteRubric } from '../api/delete-rubric';
import { useDuplicateAssignment } from '../api/duplicate-assignment';
import { useLibrary } from '../api/get-library';
import { useShareItem } from '../api/share-item';
import { useUpdateFolders } from '../api/update-folders';
import { assignmentTypeMeta, RUBRIC_META } from '../assignment-types';
import { plural } from '../format';
import { buildLibraryView, folderOfAssignments, foldersAfterDelete, foldersAfterMove, type TypeFilter } from '../library-view';
import { usePendingToast } from '../pending-toast';
import type { Folder, Library, LibraryAssignment, LibraryRubric } from '../types';
import { FolderSection, isAssignmentDrag } from './FolderSection';
import { ASSIGNMENT_DRAG_TYPE, ItemRow, RowList } from './ItemRow';
import type { ItemAction } from './ItemActionsMenu';
import { LibraryFilters } from './LibraryFilters';
import { LibraryHeader } from './LibraryHeader';
import { MoveAssignmentDialog } from './MoveAssignmentDialog';
import { NewFolderDialog } from './NewFolderDialog';

/** The dialog on screen, if any. */
type OpenDialog =
  | { kind: 'newFolder' }
  | { kind: 'move'; assignment: LibraryAssignment }
  | { kind: 'share'; item: { kind: 'assignment' | 'rubric'; id: string; name: string } }
  | { kind: 'deleteAssignment'; assignment: LibraryAssignment }
  | { kind: 'deleteRubric'; rubric: LibraryRubric }
  | { kind: 'deleteFolder'; folder: Folder };

/** Where the ids of open folders are remembered between visits. */
const OPEN_FOLDERS_KEY = 'markwell:library-open-folders';

function readOpenFolders(): Set<string> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(OPEN_FOLDERS_KEY) ?? '[]');
    return new Set(Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  } catch {
    return new Set();
  }
}

function writeOpenFolders(ids: Set<string>): void {
  try {
    localStorage.setItem(OPEN_FOLDERS_KEY, JSON.stringify([...ids]));
  } catch {
    // Not remembering which folders were open is fine.
  }
}

/** The team library (`/library`): folders, assignments and rubrics, with search and a type filter. */
export function LibraryPage() {
  useDocumentTitle('Library');
  usePendingToast();
  const library = useLibrary();
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const closeDialog = useCallback(() => setDialog(null), []);

  let body: ReactNode;
  if (library.isPending) body = <LibrarySkeleton />;
  else if (library.isError)
    body = (
      <LoadError
        message="We couldn't load your library."
        onRetry={() => void library.refetch()}
        retrying={library.isFetching}
      />
    );
  else body = <LibraryContent library={library.data} dialog={dialog} setDialog={setDialog} closeDialog={closeDialog} />;

  return (
    <>
      <LibraryHeader onNewFolder={() => setDialog({ kind: 'newFolder' })} />
      {body}
      {dialog?.kind === 'newFolder' && <NewFolderDialog onClose={closeDialog} />}
    </>
  );
}

interface LibraryContentProps {
  library: Library;
  dialog: OpenDialog | null;
  setDialog: (dialog: OpenDialog | null) => void;
  closeDialog: () => void;
}

function LibraryContent({ library, dialog, setDialog, closeDialog }: LibraryContentProps) {
  const [search, setSearch] = useState('');
  const [type, setType] = useState<TypeFilter>('all');
  const [openFolders, setOpenFolders] = useState(readOpenFolders);
  const [draggingId, setDraggingId] = useState<string | null>(null);
  const [dropTarget, setDropTarget] = useState<string | null>(null);

  const navigate = useNavigate();
  const { showToast } = useToast();
  const updateFolders = useUpdateFolders();
  const deleteAssignment = useDeleteAssignment();
  const deleteRubric = useDeleteRubric();
  const duplicate = useDuplicateAssignment();
  const share = useShareItem();

  const view = useMemo(() => buildLibraryView(library, search, type), [library, search, type]);
  const folderOf = useMemo(() => folderOfAssignments(library.folders), [library.folders]);
  const isEmpty = library.assignments.length === 0 && library.rubrics.length === 0 && library.folders.length === 0;

  const setFolderOpen = (folderId: string, open: boolean) =>
    setOpenFolders((previous) => {
      if (previous.has(folderId) === open) return previous;
      const next = new Set(previous);
      if (open) next.add(folderId);
      else next.delete(folderId);
      writeOpenFolders(next);
      return next;
    });

  const moveAssignment = (assignmentId: string, folderId: string | null, onDone?: () => void) => {
    if ((folderOf.get(assignmentId) ?? null) === folderId) return;
    updateFolders.mutate(
      { newFolders: foldersAfterMove(library.folders, assignmentId, folderId) },
      {
        onSuccess: () => {
          showToast({ type: 'success', message: 'Assignment moved successfully' });
          if (folderId) setFolderOpen(folderId, true);
          onDone?.();
        },
        onError: () => showToast({ type: 'error', message: 'Error moving assignment' }),
      },
    );
  };

  const duplicateAssignment = (assignment: LibraryAssignment) =>
    duplicate.mutate(
      { assignmentId: assignment._id },
      {
        onSuccess: (copy) => {
          showToast({ type: 'success', message: 'Assignment duplicated' });
          navigate(`/assignment/${copy._id}`);
        },
        onError: (error) =>
          showToast({ type: 'error', message: errorMessage(error, "Couldn't duplicate the assignment. Please try again.") }),
      },
    );

  const assignmentActions = (assignment: LibraryAssignment): ItemAction[] => [
    {
      label: 'Move to folder…',
      icon: <DriveFileMoveOutlined fontSize="small" />,
      onSelect: () => setDialog({ kind: 'move', assignment }),
    },
    {
      label: 'Duplicate',
      icon: <ContentCopyOutlined fontSize="small" />,
      onSelect: () => duplicateAssignment(assignment),
      disabled: duplicate.isPending,
    },
    {
      label: 'Share…',
      icon: <IosShareRounded fontSize="small" />,
      onSelect: () => setDialog({ kind: 'share', item: { kind: 'assignment', id: assignment._id, name: assignment.name } }),
    },
    {
      label: 'Delete',
      icon: <DeleteOutlineRounded fontSize="small" />,
      onSelect: () => setDialog({ kind: 'deleteAssignment', assignment }),
      destructive: true,
    },
  ];

  const rubricActions = (rubric: LibraryRubric): ItemAction[] => [
    { label: 'Edit', icon: <EditOutlined fontSize="small" />, onSelect: () => navigate(`/rubrics/${rubric._id}`) },
    {
      label: 'Share…',
      icon: <IosShareRounded fontSize="small" />,
      onSelect: () => setDialog({ kind: 'share', item: { kind: 'rubric', id: rubric._id, name: rubric.name } }),
    },
    {
      label: 'Delete',
      icon: <DeleteOutlineRounded fontSize="small" />,
      onSelect: () => setDialog({ kind: 'deleteRubric', rubric }),
      destructive: true,
    },
  ];

  const assignmentRow = (assignment: LibraryAssignment) => {
    const submissions = assignment.submissions?.length ?? 0;
    const updated = formatDate(assignment.updatedAt);
    return (
      <li key={assignment._id}>
        <ItemRow
          name={assignment.name}
          to={`/assignment/${assignment._id}`}
          meta={assignmentTypeMeta(assignment.type)}
          detail={submissions ? plural(submissions, 'submission') : 'No submissions yet'}
          updated={updated}
          actions={assignmentActions(assignment)}
          dragId={assignment._id}
          dragging={draggingId === assignment._id}
          onDragStart={setDraggingId}
          onDragEnd={() => {
            setDraggingId(null);
            setDropTarget(null);
          }}
        />
      </li>
    );
  };

  const dropHandlers = (target: string | null) => ({
    onDragOver: (event: DragEvent) => {
      if (!isAssignmentDrag(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      setDropTarget(target ?? 'top');
    },
    onDragLeave: (event: DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropTarget(null);
    },
    onDrop: (event: DragEvent) => {
      if (!isAssignmentDrag(event)) return;
      event.preventDefault();
      setDropTarget(null);
      const id = event.dataTransfer.getData(ASSIGNMENT_DRAG_TYPE);
      if (id) moveAssignment(id, target);
    },
  });

  const confirmDeleteFolder = (folder: Folder) =>
    updateFolders.mutate(
      { newFolders: foldersAfterDelete(library.folders, folder._id) },
      {
        onSuccess: () => {
          showToast({ type: 'success', message: 'Folder deleted successfully' });
          closeDialog();
        },
        onError: () => showToast({ type: 'error', message: 'Error deleting folder' }),
      },
    );

  const hasAssignments = library.assignments.length > 0 || library.folders.length > 0;
  const nothingShown = view.folders.length === 0 && view.topLevel.length === 0 && view.rubrics.length === 0;
  const draggingFromFolder = draggingId !== null && folderOf.has(draggingId);

  return (
    <>
      {isEmpty ? (
        <EmptyLibrary />
      ) : (
        <>
          <LibraryFilters search={search} onSearchChange={setSearch} type={type} onTypeChange={setType} />
          {view.filtered && nothingShown ? (
            <NoMatches
              search={search}
              onClear={() => {
                setSearch('');
                setType('all');
              }}
            />
          ) : (
            <>
              {view.showAssignments && (hasAssignments || !view.filtered) && (
                <Section title="Assignments" count={view.topLevel.length + view.folders.reduce((n, f) => n + f.assignments.length, 0)}>
                  {view.folders.map(({ folder, assignments }) => (
                    <FolderSection
                      key={folder._id}
                      folder={folder}
                      count={assignments.length}
                      open={view.filtered || openFolders.has(folder._id)}
                      onToggle={() => setFolderOpen(folder._id, !openFolders.has(folder._id))}
                      onDelete={() => setDialog({ kind: 'deleteFolder', folder })}
                      onDropAssignment={(id) => moveAssignment(id, folder._id)}
                      dropActive={dropTarget === folder._id}
                      onDragOverChange={(over) => setDropTarget(over ? folder._id : null)}
                    >
                      {assignments.map(assignmentRow)}
                    </FolderSection>
                  ))}
                  {view.topLevel.length > 0 ? (
                    <Paper
                      variant="outlined"
                      {...dropHandlers(null)}
                      sx={{
                        borderRadius: '12px',
                        overflow: 'hidden',
                        ...(dropTarget === 'top' && { borderColor: 'primary.main', boxShadow: '0 0 0 2px rgba(23, 97, 107, 0.25)' }),
                      }}
                    >
                      <RowList label={view.folders.length > 0 ? 'Assignments not in a folder' : 'Assignments'}>
                        {view.topLevel.map(assignmentRow)}
                      </RowList>
                    </Paper>
                  ) : draggingFromFolder ? (
                    <Box
                      {...dropHandlers(null)}
                      sx={{
                        border: '2px dashed',
                        borderColor: dropTarget === 'top' ? 'primary.main' : 'divider',
                        borderRadius: '12px',
                        px: 2,
                        py: 3,
                        textAlign: 'center',
                        color: 'text.secondary',
                      }}
                    >
                      Drop here to take it out of its folder
                    </Box>
                  ) : (
                    library.assignments.length === 0 &&
                    !view.filtered && (
                      <Typography color="text.secondary" sx={{ px: 0.5 }}>
                        No assignments yet. Create one with New assignment.
                      </Typography>
                    )
                  )}
                </Section>
              )}
              {view.showRubrics && (view.rubrics.length > 0 || !view.filtered) && (
                <Section title="Rubrics" count={view.rubrics.length}>
                  {view.rubrics.length > 0 ? (
                    <Paper variant="outlined" sx={{ borderRadius: '12px', overflow: 'hidden' }}>
                      <RowList label="Rubrics">
                        {view.rubrics.map((rubric) => (
                          <li key={rubric._id}>
                            <ItemRow
                              name={rubric.name}
                              to={`/rubrics/${rubric._id}`}
                              meta={RUBRIC_META}
                              detail={plural(rubric.criteria?.length ?? 0, 'criterion', 'criteria')}
                              updated={formatDate(rubric.updatedAt)}
                              actions={rubricActions(rubric)}
                            />
                          </li>
                        ))}
                      </RowList>
                    </Paper>
                  ) : (
                    <Typography color="text.secondary" sx={{ px: 0.5 }}>
                      No rubrics yet. Create one with New rubric.
                    </Typography>
                  )}
                </Section>
              )}
            </>
          )}
        </>
      )}

      {dialog?.kind === 'move' && (
        <MoveAssignmentDialog
          assignmentName={dialog.assignment.name}
          folders={[...library.folders].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }))}
          currentFolderId={folderOf.get(dialog.assignment._id) ?? null}
          pending={updateFolders.isPending}
          onMove={(folderId) => moveAssignment(dialog.assignment._id, folderId, closeDialog)}
          onClose={closeDialog}
        />
      )}
      {dialog?.kind === 'share' && (
        <ShareDialog
          name={dialog.item.name}
          noun={dialog.item.kind}
          onShare={(email) => share.mutateAsync({ kind: dialog.item.kind, id: dialog.item.id, email })}
          onClose={closeDialog}
        />
      )}
      {dialog?.kind === 'deleteAssignment' && (
        <ConfirmDialog
          open
          title={`Delete “${dialog.assignment.name}”?`}
          description="The assignment and all its submissions and results are deleted for your whole team. This can't be undone."
          confirmLabel="Delete assignment"
          pending={deleteAssignment.isPending}
          onClose={closeDialog}
          onConfirm={() => {
            // Spec §8: a failed delete shows no error and the dialog stays open.
            deleteAssignment.mutate(
              { assignmentId: dialog.assignment._id },
              {
                onSuccess: () => {
                  showToast({ type: 'success', message: 'Assignment deleted' });
                  closeDialog();
                },
              },
            );
          }}
        />
      )}
      {dialog?.kind === 'deleteRubric' && (
        <ConfirmDialog
          open
          title={`Delete “${dialog.rubric.name}”?`}
          description="The rubric is removed from your team's library. Assignments that grade against it may stop working. This can't be undone."
          confirmLabel="Delete rubric"
          pending={deleteRubric.isPending}
          onClose={closeDialog}
          onConfirm={() => {
            deleteRubric.mutate(
              { rubricId: dialog.rubric._id },
              {
                onSuccess: () => {
                  showToast({ type: 'success', message: 'Rubric deleted' });
                  closeDialog();
                },
              },
            );
          }}
        />
      )}
      {dialog?.kind === 'deleteFolder' && (
        <ConfirmDialog
          open
          title={`Delete folder “${dialog.folder.name}”?`}
          description={
            dialog.folder.assignments.length > 0
              ? `${dialog.folder.assignments.length === 1 ? 'Its assignment moves' : `Its ${dialog.folder.assignments.length} assignments move`} back to the top of the library. No assignment is deleted.`
              : 'The folder is empty. No assignment is deleted.'
          }
          confirmLabel="Delete folder"
          pending={updateFolders.isPending}
          onClose={closeDialog}
          onConfirm={() => confirmDeleteFolder(dialog.folder)}
        />
      )}
    </>
  );
}

function Section({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={`library-${title}`} sx={{ mb: 4 }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, mb: 1.5 }}>
        <Typography id={`library-${title}`} variant="h2" sx={{ fontSize: '1.25rem' }}>
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary" aria-hidden="true">
          {count}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>{children}</Box>
    </Box>
  );
}

function EmptyLibrary() {
  return (
    <EmptyState icon={<LibraryBooksOutlined />} gap={1.5}>
      <Typography sx={{ maxWidth: 420, fontWeight: 600 }}>Your team&apos;s assignments and rubrics will appear here.</Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 440 }}>
        Start with New assignment, or build a rubric to grade against.
      </Typography>
    </EmptyState>
  );
}

function NoMatches({ search, onClear }: { search: string; onClear: () => void }) {
  return (
    <Paper variant="outlined" sx={{ borderRadius: '12px', px: 3, py: 5, textAlign: 'center' }}>
      <Typography sx={{ fontWeight: 600, mb: 0.5, overflowWrap: 'anywhere' }}>
        {search.trim() ? `Nothing matches “${search.trim()}”.` : 'Nothing of this type yet.'}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Try another name or type.
      </Typography>
      <Button variant="outlined" onClick={onClear}>
        Clear search and filters
      </Button>
    </Paper>
  );
}

function LibrarySkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading library">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 3 }}>
        <Skeleton variant="rounded" height={40} sx={{ flex: { xs: '1 1 100%', md: '0 1 320px' } }} />
        <Box sx={{ display: 'flex', gap: 1 }}>
          {[48, 64, 80].map((w) => (
            <Skeleton key={w} variant="rounded" width={w} height={32} sx={{ borderRadius: 4 }} />
          ))}
        </Box>
      </Box>
      <Skeleton width={140} height={32} sx={{ mb: 1.5 }} />
      <Skeleton variant="rounded" height={56} sx={{ mb: 1.5, borderRadius: '12px' }} />
      <Paper variant="outlined" sx={{ borderRadius: '12px', px: 2, py: 0.5 }}>
        {[0, 1, 2].map((i) => (
          <Box key={i} sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 1.5 }}>
            <Skeleton variant="rounded" width={36} height={36} />
            <Box sx={{ flex: 1 }}>
              <Skeleton width="45%" />
              <Skeleton width="25%" />
            </Box>
          </Box>
        ))}
      </Paper>
    </Box>
  );
}
