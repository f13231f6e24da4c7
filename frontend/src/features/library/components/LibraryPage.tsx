import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { LoadError } from '../../../components/LoadError';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLibrary } from '../api/get-library';
import { buildLibraryView, type TypeFilter } from '../library-view';
import { useOpenFolders } from '../open-folders';
import { usePendingToast } from '../pending-toast';
import type { Library } from '../types';
import { AssignmentsSection } from './AssignmentsSection';
import type { OpenDialog } from './library-dialog';
import { LibraryDialogs } from './LibraryDialogs';
import { LibraryFilters } from './LibraryFilters';
import { LibraryHeader } from './LibraryHeader';
import { EmptyLibrary, LibrarySkeleton, NoMatches } from './LibraryPlaceholders';
import { FolderNameDialog } from './FolderNameDialog';
import { RubricsSection } from './RubricsSection';
import { useLibraryActions } from './use-library-actions';

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
      {dialog?.kind === 'newFolder' && <FolderNameDialog onClose={closeDialog} />}
      {dialog?.kind === 'renameFolder' && <FolderNameDialog folder={dialog.folder} onClose={closeDialog} />}
    </>
  );
}

interface LibraryContentProps {
  library: Library;
  dialog: OpenDialog | null;
  setDialog: (dialog: OpenDialog | null) => void;
  closeDialog: () => void;
}

/** The loaded library: filters, the assignments and rubrics they show, and the dialogs on them. */
function LibraryContent({ library, dialog, setDialog, closeDialog }: LibraryContentProps) {
  const [search, setSearch] = useState('');
  const [type, setType] = useState<TypeFilter>('all');
  const { openFolders, setFolderOpen } = useOpenFolders();
  const { folderOf, moveAssignment, assignmentActions, rubricActions, updateFolders } = useLibraryActions(
    library,
    setDialog,
    setFolderOpen,
  );

  const view = useMemo(() => buildLibraryView(library, search, type), [library, search, type]);
  const isEmpty = library.assignments.length === 0 && library.rubrics.length === 0 && library.folders.length === 0;
  const hasAssignments = library.assignments.length > 0 || library.folders.length > 0;
  const nothingShown = view.folders.length === 0 && view.topLevel.length === 0 && view.rubrics.length === 0;

  let items: ReactNode;
  if (isEmpty) items = <EmptyLibrary />;
  else if (view.filtered && nothingShown)
    items = (
      <>
        <LibraryFilters search={search} onSearchChange={setSearch} type={type} onTypeChange={setType} />
        <NoMatches
          search={search}
          onClear={() => {
            setSearch('');
            setType('all');
          }}
        />
      </>
    );
  else
    items = (
      <>
        <LibraryFilters search={search} onSearchChange={setSearch} type={type} onTypeChange={setType} />
        {view.showAssignments && (hasAssignments || !view.filtered) && (
          <AssignmentsSection
            view={view}
            hasAnyAssignment={library.assignments.length > 0}
            folderOf={folderOf}
            openFolders={openFolders}
            setFolderOpen={setFolderOpen}
            onRenameFolder={(folder) => setDialog({ kind: 'renameFolder', folder })}
            onDeleteFolder={(folder) => setDialog({ kind: 'deleteFolder', folder })}
            moveAssignment={moveAssignment}
            assignmentActions={assignmentActions}
          />
        )}
        {view.showRubrics && (view.rubrics.length > 0 || !view.filtered) && (
          <RubricsSection rubrics={view.rubrics} rubricActions={rubricActions} />
        )}
      </>
    );

  return (
    <>
      {items}
      <LibraryDialogs
        library={library}
        dialog={dialog}
        closeDialog={closeDialog}
        folderOf={folderOf}
        moveAssignment={moveAssignment}
        updateFolders={updateFolders}
      />
    </>
  );
}
