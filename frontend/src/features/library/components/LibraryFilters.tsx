import SearchRounded from '@mui/icons-material/SearchRounded';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { TYPE_FILTERS, type TypeFilter } from '../library-view';

/** Props for {@link LibraryFilters}. */
export interface LibraryFiltersProps {
  search: string;
  onSearchChange: (search: string) => void;
  type: TypeFilter;
  onTypeChange: (type: TypeFilter) => void;
}

/** Search by name and the type filter chips (toggle buttons: exactly one is pressed). */
export function LibraryFilters({ search, onSearchChange, type, onTypeChange }: LibraryFiltersProps) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 3 }}>
      <TextField
        type="search"
        size="small"
        placeholder="Search by name"
        value={search}
        onChange={(event) => onSearchChange(event.target.value)}
        slotProps={{
          htmlInput: { 'aria-label': 'Search library' },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchRounded fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
        sx={{ flex: { xs: '1 1 100%', md: '0 1 320px' }, '& .MuiInputBase-root': { bgcolor: 'background.paper' } }}
      />
      <Box role="group" aria-label="Filter by type" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {TYPE_FILTERS.map((filter) => {
          const selected = filter.value === type;
          return (
            <Chip
              key={filter.value}
              label={filter.label}
              clickable
              color={selected ? 'primary' : 'default'}
              variant={selected ? 'filled' : 'outlined'}
              aria-pressed={selected}
              onClick={() => onTypeChange(filter.value)}
              sx={{ fontWeight: 500, ...(!selected && { bgcolor: 'background.paper' }) }}
            />
          );
        })}
      </Box>
    </Box>
  );
}
