import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { useVm } from '../../use-vm';
import { HomeVm } from './home.vm';

export const HomeView = observer(function HomeView() {
  const vm = useVm(HomeVm);
  const promptId = useId();

  return (
    <main>
      <h1>Kiln</h1>
      <label htmlFor={promptId}>Describe the app you want to build</label>
      <textarea id={promptId} value={vm.prompt} onChange={(event) => vm.setPrompt(event.target.value)} rows={6} />
      <button type="button" disabled={!vm.canSubmit}>
        Build it
      </button>
    </main>
  );
});
