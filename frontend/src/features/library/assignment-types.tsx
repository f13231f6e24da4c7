import ChatOutlined from '@mui/icons-material/ChatOutlined';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import GradingOutlined from '@mui/icons-material/GradingOutlined';
import RateReviewOutlined from '@mui/icons-material/RateReviewOutlined';
import TableChartOutlined from '@mui/icons-material/TableChartOutlined';
import type { SvgIconComponent } from '@mui/icons-material';
import type { AssignmentType } from './types';

/** How each kind of item looks in the library. */
export interface ItemKindMeta {
  label: string;
  /** What it is, in a few words (the New assignment menu). */
  description: string;
  Icon: SvgIconComponent;
  /** Text and icon colour; the chip and icon backgrounds are this at low opacity. */
  color: string;
  tint: string;
}

/** The four assignment types, in the order the New assignment menu lists them. */
export const ASSIGNMENT_TYPES: AssignmentType[] = ['feedback', 'grade', 'rubric-feedback', 'prompt'];

/** Labels, icons and colours of the assignment types. */
export const ASSIGNMENT_TYPE_META: Record<AssignmentType, ItemKindMeta> = {
  feedback: {
    label: 'Feedback',
    description: 'Highlight and comment on writing',
    Icon: RateReviewOutlined,
    color: '#4a4f9c',
    tint: 'rgba(74, 79, 156, 0.1)',
  },
  grade: {
    label: 'Grade',
    description: 'Questions with criteria and points',
    Icon: GradingOutlined,
    color: '#17616b',
    tint: 'rgba(23, 97, 107, 0.1)',
  },
  'rubric-feedback': {
    label: 'Rubric feedback',
    description: 'Assess work against a saved rubric',
    Icon: FactCheckOutlined,
    color: '#2e6b3a',
    tint: 'rgba(46, 107, 58, 0.1)',
  },
  prompt: {
    label: 'Prompt',
    description: 'Your own instructions to the AI',
    Icon: ChatOutlined,
    color: '#8a3f6b',
    tint: 'rgba(138, 63, 107, 0.1)',
  },
};

/** How a rubric looks in the library. */
export const RUBRIC_META: ItemKindMeta = {
  label: 'Rubric',
  description: 'Criteria and levels of achievement',
  Icon: TableChartOutlined,
  color: '#8a4b08',
  tint: 'rgba(138, 75, 8, 0.1)',
};

/** Meta of an assignment type, falling back sensibly for a type this build does not know. */
export function assignmentTypeMeta(type: string): ItemKindMeta {
  return ASSIGNMENT_TYPE_META[type as AssignmentType] ?? { ...ASSIGNMENT_TYPE_META.grade, label: type };
}

/** Where the creation page of each assignment type lives. */
export function newAssignmentPath(type: AssignmentType): string {
  return `/assignments/new/${type}`;
}
