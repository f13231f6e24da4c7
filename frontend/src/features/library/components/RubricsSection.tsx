import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { formatDate } from '../../../lib/format-date';
import { RUBRIC_META } from '../assignment-types';
import { plural } from '../format';
import type { LibraryRubric } from '../types';
import type { MenuAction } from '../../../components/ActionsMenu';
import { ItemRow, RowList } from './ItemRow';
import { LibrarySection } from './LibraryPlaceholders';

/** The library's rubrics, each with its menu. */
export function RubricsSection({
  rubrics,
  rubricActions,
}: {
  rubrics: LibraryRubric[];
  rubricActions: (rubric: LibraryRubric) => MenuAction[];
}) {
  return (
    <LibrarySection title="Rubrics" count={rubrics.length}>
      {rubrics.length > 0 ? (
        <Paper variant="outlined" sx={{ borderRadius: '12px', overflow: 'hidden' }}>
          <RowList label="Rubrics">
            {rubrics.map((rubric) => (
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
    </LibrarySection>
  );
}
