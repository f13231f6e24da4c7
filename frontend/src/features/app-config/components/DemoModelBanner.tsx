import ScienceOutlined from '@mui/icons-material/ScienceOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useAppConfig } from '../../../lib/app-config';

/**
 * Says plainly, on every signed-in page, when AI results come from the demo model, so nobody
 * mistakes its simulated suggestions and grades for a real model's.
 */
export function DemoModelBanner() {
  const { data } = useAppConfig();
  if (!data?.demoModel) return null;
  return (
    <Alert
      severity="info"
      icon={<ScienceOutlined fontSize="small" />}
      sx={{
        borderRadius: 0,
        py: 0,
        justifyContent: 'center',
        '& .MuiAlert-message': { py: { xs: 0.5, sm: 0.75 } },
        '& .MuiAlert-icon': { py: { xs: 0.5, sm: 0.875 }, mr: { xs: 1, sm: 1.5 } },
        fontSize: { xs: '0.8125rem', sm: undefined },
      }}
    >
      {/* One short line on a phone; the full sentence from sm up. */}
      <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
        Demo mode: AI suggestions and results come from Markwell&apos;s built-in demo model, not a real AI.
      </Box>
      <Box component="span" sx={{ display: { xs: 'inline', sm: 'none' } }}>
        Demo mode: AI results are simulated.
      </Box>
    </Alert>
  );
}
