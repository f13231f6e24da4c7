import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';

/** The first rows of a CSV, every cell rendered as plain text. */
export function CsvPreviewTable({ headers, rows }: { headers: string[]; rows: string[][] }) {
  return (
    // It scrolls: focusable (tabIndex) so a keyboard can scroll it, named as a region.
    <TableContainer
      tabIndex={0}
      role="region"
      aria-label="CSV preview"
      sx={{ border: '1px solid', borderColor: 'divider', borderRadius: '10px', maxHeight: 280 }}
    >
      <Table size="small" stickyHeader aria-label="First rows of the CSV file">
        <TableHead>
          <TableRow>
            {headers.map((header, index) => (
              <TableCell key={index} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                {header.trim() || `Column ${index + 1}`}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, r) => (
            <TableRow key={r}>
              {headers.map((_, c) => (
                <TableCell key={c} sx={{ maxWidth: 240, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={row[c] ?? ''}>
                  {row[c] ?? ''}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
