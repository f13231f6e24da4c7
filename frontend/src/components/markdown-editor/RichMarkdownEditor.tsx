import FormatBoldRounded from '@mui/icons-material/FormatBoldRounded';
import FormatItalicRounded from '@mui/icons-material/FormatItalicRounded';
import FormatListBulletedRounded from '@mui/icons-material/FormatListBulletedRounded';
import FormatListNumberedRounded from '@mui/icons-material/FormatListNumberedRounded';
import FormatQuoteRounded from '@mui/icons-material/FormatQuoteRounded';
import RedoRounded from '@mui/icons-material/RedoRounded';
import TitleRounded from '@mui/icons-material/TitleRounded';
import UndoRounded from '@mui/icons-material/UndoRounded';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import { Tooltip } from '../Tooltip';
import Typography from '@mui/material/Typography';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { useEffect, useRef, type ReactNode } from 'react';
import type { MarkdownEditorProps } from '../MarkdownEditor';
import { editorExtensions } from './extensions';
import { proseMirrorStyles } from './styles';

/** One toolbar button: a toggle with its name as label and tooltip. */
function Tool({ label, active, disabled, onClick, children }: { label: string; active?: boolean; disabled?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <Tooltip title={label}>
      <span>
        <IconButton
          size="small"
          aria-label={label}
          aria-pressed={active === undefined ? undefined : active}
          disabled={disabled}
          // Keep the text's selection: the button acts on it.
          onMouseDown={(event) => event.preventDefault()}
          onClick={onClick}
          sx={{ borderRadius: '6px', color: active ? 'primary.main' : 'text.secondary', bgcolor: active ? 'action.selected' : undefined }}
        >
          {children}
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** The toolbar: the formatting a teacher's document or feedback uses. */
function Toolbar({ editor, label }: { editor: Editor; label: string }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      heading: e.isActive('heading', { level: 2 }),
      bullets: e.isActive('bulletList'),
      numbers: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      undo: e.can().undo(),
      redo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  return (
    <Box role="toolbar" aria-label={`${label}: formatting`} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.25, px: 0.5, py: 0.5, borderBottom: 1, borderColor: 'divider' }}>
      <Tool label="Bold" active={state.bold} onClick={() => chain().toggleBold().run()}>
        <FormatBoldRounded fontSize="small" />
      </Tool>
      <Tool label="Italic" active={state.italic} onClick={() => chain().toggleItalic().run()}>
        <FormatItalicRounded fontSize="small" />
      </Tool>
      <Tool label="Heading" active={state.heading} onClick={() => chain().toggleHeading({ level: 2 }).run()}>
        <TitleRounded fontSize="small" />
      </Tool>
      <Tool label="Bulleted list" active={state.bullets} onClick={() => chain().toggleBulletList().run()}>
        <FormatListBulletedRounded fontSize="small" />
      </Tool>
      <Tool label="Numbered list" active={state.numbers} onClick={() => chain().toggleOrderedList().run()}>
        <FormatListNumberedRounded fontSize="small" />
      </Tool>
      <Tool label="Quote" active={state.quote} onClick={() => chain().toggleBlockquote().run()}>
        <FormatQuoteRounded fontSize="small" />
      </Tool>
      <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
      <Tool label="Undo" disabled={!state.undo} onClick={() => chain().undo().run()}>
        <UndoRounded fontSize="small" />
      </Tool>
      <Tool label="Redo" disabled={!state.redo} onClick={() => chain().redo().run()}>
        <RedoRounded fontSize="small" />
      </Tool>
    </Box>
  );
}

/**
 * The rich-text Markdown editor (Tiptap): the teacher edits formatted text, the value in and out
 * is Markdown. Loaded lazily through {@link MarkdownEditor}; import that, not this.
 */
export default function RichMarkdownEditor({ value, onChange, label, title, minHeight = 240, maxHeight, autoFocus = false }: MarkdownEditorProps) {
  // The last Markdown this editor wrote: a value that differs came from outside and is loaded.
  const written = useRef(value);
  const change = useRef(onChange);
  change.current = onChange;
  const editor = useEditor({
    extensions: editorExtensions(),
    content: value,
    contentType: 'markdown',
    autofocus: autoFocus ? 'end' : false,
    // Tiptap's own <style> tag would carry no nonce; the styles come from the theme instead.
    injectCSS: false,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: { 'aria-label': label, 'aria-multiline': 'true', role: 'textbox', spellcheck: 'true' },
    },
    onUpdate: ({ editor: e }) => {
      // Blank lines at the end carry nothing, and a version compared with it would differ by them.
      const markdown = e.getMarkdown().replace(/\s+$/, '');
      written.current = markdown;
      change.current(markdown);
    },
  });

  useEffect(() => {
    if (value === written.current) return;
    written.current = value;
    editor.commands.setContent(value, { contentType: 'markdown', emitUpdate: false });
  }, [editor, value]);

  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: '8px', bgcolor: 'background.paper', minWidth: 0, '&:focus-within': { borderColor: 'primary.main', boxShadow: (t) => `0 0 0 1px ${t.palette.primary.main}` } }}>
      {title && (
        <Typography variant="subtitle2" component="h3" sx={{ px: 2, pt: 1.5, pb: 1, borderBottom: 1, borderColor: 'divider' }}>
          {title}
        </Typography>
      )}
      <Toolbar editor={editor} label={label} />
      <Box sx={proseMirrorStyles(minHeight, maxHeight)}>
        <EditorContent editor={editor} />
      </Box>
    </Box>
  );
}
