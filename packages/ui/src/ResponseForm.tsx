'use client';

import Form, { type IChangeEvent } from '@rjsf/core';
import {
  type DescriptionFieldProps,
  errorId,
  type FieldErrorProps,
  type IconButtonProps,
  type TemplatesType,
  TranslatableString,
} from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import type { ReactNode } from 'react';
import * as React from 'react';
import { useInterruptRoot } from './interruptContext.js';
import { formSchema, formUiSchema, transformErrors } from './interruptForm.js';

/** Schema text is the agent's: shown as text, never as markdown or HTML (rjsf's RichDescription is not used). */
function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps) {
  if (!description) return null;
  return (
    <p id={id} className="agk-field__description">
      {description}
    </p>
  );
}

function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  const messages = [...new Set(errors.filter((e): e is string => typeof e === 'string'))];
  if (messages.length === 0) return null;
  return (
    <ul id={errorId(fieldPathId)} className="agk-field__errors">
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

/** rjsf's buttons show Bootstrap glyph icons, which aguikit does not load: words instead. */
function TextButton({
  label,
  iconType: _type,
  icon: _icon,
  className: _class,
  uiSchema: _ui,
  registry,
  ...rest
}: IconButtonProps & { label: TranslatableString }) {
  return (
    <button type="button" className="agk-button agk-field__button" {...rest} title={undefined}>
      {registry.translateString(label)}
    </button>
  );
}

const AddButton = (props: IconButtonProps) => <TextButton {...props} label={TranslatableString.AddItemButton} />;
const CopyButton = (props: IconButtonProps) => <TextButton {...props} label={TranslatableString.CopyButton} />;
const MoveDownButton = (props: IconButtonProps) => <TextButton {...props} label={TranslatableString.MoveDownButton} />;
const MoveUpButton = (props: IconButtonProps) => <TextButton {...props} label={TranslatableString.MoveUpButton} />;
const RemoveButton = (props: IconButtonProps) => <TextButton {...props} label={TranslatableString.RemoveButton} />;

const templates: Partial<Omit<TemplatesType, 'ButtonTemplates'>> & { ButtonTemplates: Partial<TemplatesType['ButtonTemplates']> } = {
  DescriptionFieldTemplate,
  FieldErrorTemplate,
  ButtonTemplates: { AddButton, CopyButton, MoveDownButton, MoveUpButton, RemoveButton },
};

/** A schema rjsf cannot build (an unresolvable `$ref`, say) throws while rendering: it must not take the page down. */
class FormBoundary extends React.Component<{ children: ReactNode; onFailure: () => void }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch() {
    this.props.onFailure();
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return <p className="agk-error-text">The agent asked for an answer in a shape this form cannot show. You can only cancel.</p>;
  }
}

/**
 * The form generated from an interrupt's `responseSchema` (rjsf, validated
 * with ajv before anything is sent): errors show inline under their field
 * after a submit attempt, and are re-checked as you type from then on. Titles
 * and descriptions from the schema are shown as text only. Renders nothing
 * for an interrupt without a responseSchema. This module (with rjsf and ajv)
 * is a chunk of its own: `Interrupt.Form` (InterruptForm.tsx) loads it when an
 * interrupt with a schema opens, and renders this once it is there.
 *
 * @example
 * <Interrupt.Root interrupt={interrupt}><Interrupt.Form /><Interrupt.Actions /></Interrupt.Root>
 */
export function ResponseForm() {
  const root = useInterruptRoot('Form');
  const [attempted, setAttempted] = React.useState(false);
  const raw = root.interrupt.responseSchema;
  const { shape } = root;
  const schema = React.useMemo(() => (raw === undefined ? undefined : formSchema(raw)), [raw]);
  const uiSchema = React.useMemo(() => (raw === undefined ? undefined : formUiSchema(raw, shape)), [raw, shape]);
  const { reportFormReady } = root;
  // After the fields are in the DOM (and after a schema rjsf cannot build has been caught): the buttons may act.
  React.useEffect(() => {
    if (schema === undefined) return;
    reportFormReady(true);
    return () => reportFormReady(false);
  }, [schema, reportFormReady]);
  if (schema === undefined || uiSchema === undefined) return null;

  const onSubmit = ({ formData }: IChangeEvent) => {
    setAttempted(true);
    if (shape !== 'approval') return root.resolve(formData);
    // Enter in a text field submits too: an approval is only ever given by its buttons.
    const approved = root.intent.current;
    root.intent.current = undefined;
    if (approved !== undefined) root.resolve({ ...(formData as object), approved });
  };

  return (
    <FormBoundary onFailure={root.reportFormFailure}>
      <Form
        ref={root.form}
        id={root.ids.form}
        idPrefix={root.ids.fields}
        className="agk-interrupt__form"
        schema={schema}
        uiSchema={uiSchema}
        validator={validator}
        templates={templates}
        noHtml5Validate
        showErrorList={false}
        focusOnFirstError
        transformErrors={transformErrors}
        disabled={root.state !== 'open' || root.answer !== undefined}
        {...(attempted ? { liveValidate: 'onChange' as const } : {})}
        onError={() => {
          setAttempted(true);
          root.intent.current = undefined;
        }}
        onSubmit={onSubmit}
      />
    </FormBoundary>
  );
}
