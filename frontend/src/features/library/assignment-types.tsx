import TableChartOutlined from '@mui/icons-material/TableChartOutlined';
import type { SvgIconComponent } from '@mui/icons-material';
import {
  ASSIGNMENT_TYPES as ALL_TYPES,
  assignmentTypeInfo as assignmentInfo,
  isAssignmentType,
  type AssignmentType,
} from '../../lib/assignment-type';

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

/** The assignment types, in the order the New assignment menu lists them. */
export const ASSIGNMENT_TYPES: AssignmentType[] = [...ALL_TYPES].sort(
  (a, b) => assignmentInfo(a)!.menuRank - assignmentInfo(b)!.menuRank,
);

/** Labels, icons and colours of an assignment type (lib/assignment-type). */
function typeMeta(type: AssignmentType): ItemKindMeta {
  const { label, description, Icon, color, tint } = assignmentInfo(type)!;
  return { label, description, Icon, color, tint };
}

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
  return isAssignmentType(type) ? typeMeta(type) : { ...typeMeta('grade'), label: type };
}

export { newAssignmentPath } from '../../lib/assignment-type';
