// Staff management in the browser, with JavaScript off and on (docs/product.md, Staff and roles):
// the owner (the built-in owner, signed in as the other admin specs do) invites a staff member at
// /admin/staff (a refused email is explained beside its field first), sees the invitation pending,
// changes the new member's role, and the invited person sets a password through the mailed link
// and is sent to sign in.
import type { Page } from "@playwright/test";
import { MAIL_DIR } from "../../playwright.config";
import { toast } from "../support/e2e/accounts";
import { expectFieldError, openAdmin, shot, uniqueTag, uniqueWord } from "../support/e2e/admin";
import { expect, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";
import { mailsTo } from "../support/outbox";

function staffRow(page: Page, email: string) {
  return page.getByTestId("staff-row").filter({ hasText: email });
}

/** The invitation link mailed to `email`, waiting until the worker has sent it. */
async function mailedInvitation(email: string): Promise<string> {
  let link = "";
  await expect
    .poll(
      async () => {
        const mail = (await mailsTo(email, MAIL_DIR)).filter((m) => /invitation/i.test(m.subject)).at(-1);
        return (link = /(https?:\/\/\S+\/admin\/invite\?token=\S+)/.exec(mail?.text ?? "")?.[1] ?? "");
      },
      { message: `invitation mailed to ${email}` },
    )
    .toMatch(/\/admin\/invite\?token=/);
  return link;
}

test("the owner invites a staff member and changes the role; the invited person sets a password and is sent to sign in", async ({
  page,
  consoleErrors,
}, testInfo) => {
  test.slow(); // the form twice, the role, the invitation's page
  await openAdmin(page, testInfo, "/admin/staff", "Staff");
  const name = `${uniqueWord()} Rao`;
  const email = `staff-${uniqueTag(testInfo)}@example.com`;
  const invite = page.getByRole("region", { name: "Invite a staff member" });

  // 1. A refused email is explained beside its field; what was typed stays.
  await invite.getByLabel("Name", { exact: true }).fill(name);
  await invite.getByLabel("Email", { exact: true }).fill("not-an-email");
  await invite.getByLabel("Role", { exact: true }).selectOption({ label: "Fulfilment" });
  await invite.getByRole("button", { name: "Send Invitation" }).click();
  await expectFieldError(invite, "Email", "Please enter a valid email address");
  await expect(invite.getByLabel("Name", { exact: true })).toHaveValue(name);
  dropExpectedStatusErrors(consoleErrors, 400); // the refused email

  // 2. The invitation: mailed, and the account waits for it.
  await invite.getByLabel("Email", { exact: true }).fill(email);
  await invite.getByLabel("Role", { exact: true }).selectOption({ label: "Fulfilment" });
  await invite.getByRole("button", { name: "Send Invitation" }).click();
  await expect(toast(page, `Invitation sent to ${email}`)).toBeVisible();
  const row = staffRow(page, email);
  await expect(row).toContainText(name);
  await expect(row).toContainText("Invitation pending");
  await expect(row.getByLabel(`Role of ${name}`, { exact: true })).toHaveValue("fulfilment");
  await shot(page, testInfo, "staff-invited");

  // 3. The role changes.
  await row.getByLabel(`Role of ${name}`, { exact: true }).selectOption({ label: "Support" });
  await row.getByRole("button", { name: `Change the role of ${name}` }).click();
  await expect(toast(page, `${name} is now Support`)).toBeVisible();
  await expect(staffRow(page, email).getByTestId("staff-role")).toHaveText("Support");
  await expect(staffRow(page, email).getByLabel(`Role of ${name}`, { exact: true })).toHaveValue("support");

  // 4. The invited person chooses a password through the mailed link, and is sent to sign in.
  const link = await mailedInvitation(email);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Welcome to the Team" })).toBeVisible();
  await expect(page, "the token leaves the address bar").toHaveURL(/\/admin\/invite$/);
  await page.getByLabel("New Password", { exact: true }).fill("staff-secret-1");
  await page.getByLabel("Confirm New Password", { exact: true }).fill("staff-secret-1");
  await page.getByRole("button", { name: "Set My Password" }).click();
  await expect(page).toHaveURL(/\/\?admin-access$/);
  await expect(toast(page, "Your password is set.")).toBeVisible();

  // 5. The link works once.
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Invitation Not Valid" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("This invitation has been used already.");

  // The page's list now shows the account as active.
  await page.goto("/admin/staff");
  await expect(staffRow(page, email)).toContainText("Active");
});
