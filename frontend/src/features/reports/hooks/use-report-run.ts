import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { getReportRun, inProgress, reportKeys, startReportRun, type ReportRun } from '../api/reports';

/** How often a run in progress is asked about. */
export const REPORT_POLL_MS = 2000;

/** The assignment's latest run, polled every 2 s while it is queued or running. */
export function useReportRun(assignmentId: string, enabled = true) {
  return useQuery({
    queryKey: reportKeys.latest(assignmentId),
    queryFn: ({ signal }) => getReportRun(assignmentId, signal),
    enabled,
    refetchInterval: (query) => (inProgress(query.state.data) ? REPORT_POLL_MS : false),
  });
}

/**
 * Starts a run; a run already in progress (409) is not an error here: the dialog follows that one.
 * Either way the latest run is fetched again.
 */
export function useStartReportRun(assignmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (submissionIds: string[]): Promise<ReportRun | null> => {
      try {
        return await startReportRun(assignmentId, submissionIds);
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) return null;
        throw error;
      }
    },
    onSuccess: (run) => {
      if (run) queryClient.setQueryData(reportKeys.latest(assignmentId), run);
      return queryClient.invalidateQueries({ queryKey: reportKeys.latest(assignmentId) });
    },
  });
}
