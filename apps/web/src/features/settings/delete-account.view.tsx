import { Trash2 } from 'lucide-react';
import { observer } from 'mobx-react-lite';
import { type FormEvent, useId } from 'react';
import { Button } from '../../ui/button';
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '../../ui/card';
import { Dialog } from '../../ui/dialog';
import { Input } from '../../ui/input';
import { Field } from '../../ui/label';
import { useVm } from '../../use-vm';
import { DeleteAccountVm } from './delete-account.vm';

/** Settings › Profile: the "Delete account" card and its confirm-by-email dialog. */
export const DeleteAccountSection = observer(function DeleteAccountSection() {
  const vm = useVm(DeleteAccountVm);
  const id = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void vm.confirm();
  };
  return (
    <Card className="mt-6 border-destructive/40">
      <CardHeader>
        <CardTitle>Delete account</CardTitle>
        <CardDescription>
          Your subscription is cancelled at the end of the billing period, your projects are hidden and their published sites go offline, and you are
          signed out everywhere. You can sign up again later with the same email, as a new account.
        </CardDescription>
      </CardHeader>
      <CardFooter className="justify-end">
        <Button variant="destructive" onClick={vm.open}>
          <Trash2 aria-hidden />
          Delete account
        </Button>
      </CardFooter>
      <Dialog
        open={vm.confirming}
        onClose={vm.dismiss}
        locked={vm.deleting}
        title="Delete your account?"
        description="This cannot be undone from Kiln. Type your email to confirm."
        footer={
          <>
            <Button variant="ghost" onClick={vm.dismiss} disabled={vm.deleting} data-autofocus>
              Keep account
            </Button>
            <Button variant="destructive" type="submit" form={`${id}-form`} disabled={!vm.canDelete} loading={vm.deleting}>
              Delete account
            </Button>
          </>
        }
      >
        <form id={`${id}-form`} onSubmit={onSubmit} noValidate>
          <Field label={<>Type <strong>{vm.email}</strong> to confirm</>} htmlFor={`${id}-email`}>
            <Input
              id={`${id}-email`}
              type="email"
              autoComplete="off"
              value={vm.confirmation}
              onChange={(e) => vm.setConfirmation(e.target.value)}
              disabled={vm.deleting}
            />
          </Field>
          {vm.error === null ? null : (
            <p role="alert" className="mt-3 text-sm text-destructive">
              {vm.error}
            </p>
          )}
        </form>
      </Dialog>
    </Card>
  );
});
