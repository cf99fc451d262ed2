import Box from '@mui/material/Box';
import Button from '@mui/material/Button';

/** "Show more" under a list read page after page (an infinite query); nothing on the last page. */
export function ShowMore({
  list,
  label,
  testId,
}: {
  list: {
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage: () => Promise<unknown>;
  };
  label: string;
  testId: string;
}) {
  if (!list.hasNextPage) return null;
  return (
    <Box>
      <Button
        onClick={() => void list.fetchNextPage()}
        loading={list.isFetchingNextPage}
        data-testid={testId}
      >
        {label}
      </Button>
    </Box>
  );
}
