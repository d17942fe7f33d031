import { useQueryClient } from '@tanstack/react-query';
import { SignIn } from './features/auth/sign-in.tsx';
import { WorkspaceShell } from './features/conversations/workspace-shell.tsx';
import { useSession } from './lib/session.ts';

export function App() {
  const session = useSession();
  const queryClient = useQueryClient();
  if (!session.token) return <SignIn onSignedIn={session.signIn} />;
  const signOut = () => {
    queryClient.clear();
    session.signOut();
  };
  return <WorkspaceShell token={session.token} onSignOut={signOut} />;
}
