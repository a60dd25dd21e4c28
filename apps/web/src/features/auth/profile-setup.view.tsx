import { observer } from 'mobx-react-lite';
import { useEffect, useId } from 'react';
import { Button } from '../../ui/button';
import { Input, Select } from '../../ui/input';
import { Label } from '../../ui/label';
import { useVm } from '../../use-vm';
import { AuthScreen, FieldError, FormError } from './auth-screen';
import { ProfileSetupVm, ROLES } from './profile-setup.vm';

export const ProfileSetupView = observer(function ProfileSetupView() {
  const vm = useVm(ProfileSetupVm);
  const id = useId();
  useEffect(() => {
    void vm.load();
  }, [vm]);
  return (
    <AuthScreen title="Tell us about yourself" description="This helps us tailor Kiln to you. You can change it later in Settings.">
      <form
        noValidate
        className="grid gap-4"
        aria-busy={vm.loading || undefined}
        onSubmit={(event) => {
          event.preventDefault();
          void vm.save();
        }}
      >
        <div className="grid gap-2">
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input
            id={`${id}-name`}
            autoComplete="name"
            value={vm.name}
            onChange={(e) => vm.setName(e.target.value)}
            aria-invalid={vm.nameError !== null || undefined}
          />
          <FieldError id={`${id}-name-error`} message={vm.nameError} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-organization`}>Organization (optional)</Label>
          <Input
            id={`${id}-organization`}
            autoComplete="organization"
            value={vm.organization}
            onChange={(e) => vm.setOrganization(e.target.value)}
            aria-invalid={vm.organizationError !== null || undefined}
          />
          <FieldError id={`${id}-organization-error`} message={vm.organizationError} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-role`}>Role</Label>
          <Select id={`${id}-role`} value={vm.role} onChange={(e) => vm.setRole(e.target.value)}>
            {ROLES.map((role) => (
              <option key={role.value} value={role.value}>
                {role.label}
              </option>
            ))}
          </Select>
        </div>
        <FormError message={vm.error} />
        <Button type="submit" variant="brand" size="lg" loading={vm.saving}>
          Continue
        </Button>
        <Button variant="ghost" onClick={vm.skip} disabled={vm.saving}>
          Skip for now
        </Button>
      </form>
    </AuthScreen>
  );
});
