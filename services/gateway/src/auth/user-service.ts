import { AppError, emailOrRefusal, type Plan, type Role } from "@scan/contract";
import type { Db, User } from "@scan/db";

export type UserService = {
  /** Creates a user with this email, plan and role (a member by default); refused when the email is taken. */
  create: (email: string, plan: Plan, role?: Role) => Promise<User>;
  /** The user with this email; not_found when there is none. */
  byEmail: (email: string) => Promise<User>;
  /** The user with this email, created with `plan` when there is none; an existing user keeps their plan. */
  byEmailOrCreate: (email: string, plan: Plan) => Promise<User>;
  /** Gives the user with this email another plan. */
  setPlan: (email: string, plan: Plan) => Promise<User>;
  /** Gives the user with this email another role. */
  setRole: (email: string, role: Role) => Promise<User>;
};

/** Users as the operator manages them (the accounts CLI): created, given a plan and a role. */
export const createUserService = (db: Db): UserService => {
  const create = async (email: string, plan: Plan, role: Role = "member"): Promise<User> => {
    const address = emailOrRefusal(email);
    if (await db.user.findUnique({ where: { email: address } })) {
      throw new AppError("invalid_request", `A user with email ${address} already exists`);
    }
    return db.user.create({ data: { email: address, plan, role } });
  };

  const byEmail = async (email: string): Promise<User> => {
    const address = emailOrRefusal(email);
    const user = await db.user.findUnique({ where: { email: address } });
    if (!user) throw new AppError("not_found", `No user with email ${address}`);
    return user;
  };

  /** The user with this email, created with `plan` when there is none; an existing user keeps their plan. */
  const byEmailOrCreate = async (email: string, plan: Plan): Promise<User> => {
    const found = await db.user.findUnique({ where: { email: emailOrRefusal(email) } });
    return found ?? create(email, plan);
  };

  /** The user's plan becomes their personal workspace's, where it counts (the database carries it over). */
  const setPlan = async (email: string, plan: Plan): Promise<User> => {
    const user = await byEmail(email);
    return db.user.update({ where: { id: user.id }, data: { plan } });
  };

  const setRole = async (email: string, role: Role): Promise<User> => {
    const user = await byEmail(email);
    return db.user.update({ where: { id: user.id }, data: { role } });
  };

  return { create, byEmail, byEmailOrCreate, setPlan, setRole };
};
