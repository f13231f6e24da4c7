import { useCallback, useState } from 'react';

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

/** The folders the teacher left open, remembered in local storage, and a way to open or close one. */
export function useOpenFolders() {
  const [openFolders, setOpenFolders] = useState(readOpenFolders);
  const setFolderOpen = useCallback(
    (folderId: string, open: boolean) =>
      setOpenFolders((previous) => {
        if (previous.has(folderId) === open) return previous;
        const next = new Set(previous);
        if (open) next.add(folderId);
        else next.delete(folderId);
        writeOpenFolders(next);
        return next;
      }),
    [],
  );
  return { openFolders, setFolderOpen };
}
