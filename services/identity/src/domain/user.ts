export interface User {
  id: string;
  email: string;
  name: string;
  emailVerifiedAt: Date | null;
  pendingEmail: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The account with its password hash, which never leaves the service. */
export interface UserWithPassword extends User {
  passwordHash: string;
}
