import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { alpha } from '@mui/material/styles';
import { useRef, useState, type PointerEvent } from 'react';
import { LoadError } from '../../../components/LoadError';
import { errorMessage } from '../../../lib/api-client';
import { usePageImage } from '../api/get-page-image';
import type { AnswerBox } from '../api/types';
import { isBigEnough, pointInRect, rectBetween, type Point } from '../lib/geometry';
import { pathKey } from '../lib/questions';
import type { BoxRect } from '../hooks/use-box-draft';

/** Props for {@link PageCanvas}. */
export interface PageCanvasProps {
  submissionId: string;
  /** 0-based page shown. */
  page: number;
  pageCount: number;
  /** The boxes on this page. */
  boxes: AnswerBox[];
  /** The label of a question path, e.g. "1a". */
  labelOf: (path: number[]) => string;
  /** The question being drawn, or null when none is selected (drawing is off). */
  selectedPath: number[] | null;
  /** Called with the rectangle the teacher dragged out for the selected question. */
  onDraw: (rect: BoxRect) => void;
}

const PAGE_ASPECT = '1 / 1.414';

/** One outlined, labelled rectangle over the page. */
function Outline({ rect, label, selected, preview = false }: { rect: BoxRect; label: string; selected: boolean; preview?: boolean }) {
  return (
    <Box
      data-testid={preview ? 'answer-box-preview' : `answer-box-${label}`}
      sx={{
        position: 'absolute',
        left: `${rect.x * 100}%`,
        top: `${rect.y * 100}%`,
        width: `${rect.width * 100}%`,
        height: `${rect.height * 100}%`,
        border: 2,
        borderStyle: preview ? 'dashed' : 'solid',
        borderColor: selected ? 'secondary.main' : 'primary.main',
        bgcolor: (theme) => alpha(selected ? theme.palette.secondary.main : theme.palette.primary.main, 0.08),
        borderRadius: 0.5,
        pointerEvents: 'none',
      }}
    >
      <Box
        component="span"
        sx={{
          position: 'absolute',
          top: 0,
          left: 0,
          px: 0.75,
          fontSize: 12,
          fontWeight: 600,
          lineHeight: '20px',
          color: 'common.white',
          bgcolor: selected ? 'secondary.main' : 'primary.main',
          borderBottomRightRadius: 4,
          whiteSpace: 'nowrap',
        }}
      >
        {label}
      </Box>
    </Box>
  );
}

/**
 * A page of the sample submission with its boxes drawn over it. With a question selected,
 * dragging on the page (mouse, pen or finger) draws that question's box.
 */
export function PageCanvas({ submissionId, page, pageCount, boxes, labelOf, selectedPath, onDraw }: PageCanvasProps) {
  const image = usePageImage(submissionId, page);
  const imgRef = useRef<HTMLImageElement>(null);
  const [drag, setDrag] = useState<{ start: Point; end: Point; pointerId: number } | null>(null);
  const [broken, setBroken] = useState<string | null>(null);

  const pointAt = (event: PointerEvent) => {
    const img = imgRef.current;
    return img ? pointInRect(event.clientX, event.clientY, img.getBoundingClientRect()) : null;
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!selectedPath || event.button !== 0) return;
    const point = pointAt(event);
    if (!point) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    setDrag({ start: point, end: point, pointerId: event.pointerId });
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const point = pointAt(event);
    if (point) setDrag({ ...drag, end: point });
  };

  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const rect = rectBetween(drag.start, pointAt(event) ?? drag.end);
    setDrag(null);
    if (isBigEnough(rect)) onDraw(rect);
  };

  if (image.isPending) {
    return <Skeleton variant="rectangular" sx={{ width: '100%', aspectRatio: PAGE_ASPECT }} role="progressbar" aria-label="Loading the page" />;
  }
  if (image.isError || broken === image.data) {
    return (
      <LoadError
        message={image.isError ? errorMessage(image.error, "Couldn't load this page.") : "Couldn't load this page."}
        onRetry={() => {
          setBroken(null);
          void image.refetch();
        }}
        retrying={image.isFetching}
      />
    );
  }

  const selectedKey = selectedPath ? pathKey(selectedPath) : null;
  return (
    <Box
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setDrag(null)}
      sx={{
        position: 'relative',
        width: '100%',
        lineHeight: 0,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        overflow: 'hidden',
        userSelect: 'none',
        // While a question is selected a finger draws instead of scrolling the page.
        touchAction: selectedPath ? 'none' : 'auto',
        cursor: selectedPath ? 'crosshair' : 'default',
      }}
    >
      <Box
        component="img"
        ref={imgRef}
        src={image.data}
        alt={`Page ${page + 1} of ${pageCount} of the sample submission`}
        draggable={false}
        onError={() => setBroken(image.data)}
        sx={{ display: 'block', width: '100%', height: 'auto' }}
      />
      {boxes.map((box) => {
        const key = pathKey(box.path);
        // While redrawing, the new outline stands in for the box it replaces.
        if (drag && key === selectedKey) return null;
        return <Outline key={key} rect={box} label={labelOf(box.path)} selected={key === selectedKey} />;
      })}
      {drag && selectedPath && (
        <Outline rect={rectBetween(drag.start, drag.end)} label={labelOf(selectedPath)} selected preview />
      )}
    </Box>
  );
}
