import ScienceOutlined from '@mui/icons-material/ScienceOutlined';
import Alert from '@mui/material/Alert';
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
      sx={{ borderRadius: 0, py: 0, justifyContent: 'center', '& .MuiAlert-message': { py: 0.75 } }}
    >
      Demo mode: AI suggestions and results come from Markwell&apos;s built-in demo model, not a real AI.
    </Alert>
  );
}
